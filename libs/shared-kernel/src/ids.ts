import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * The one written form of a UUID: lower case. PostgreSQL compares uuids ignoring case and always
 * answers them in lower case, so an id kept as sent in upper case would not equal the same id
 * read back (a lookup by string would miss it).
 */
export function canonicalUuid<T>(value: T): T | string {
  return isUuid(value) ? value.toLowerCase() : value;
}

export function newId(): string {
  return randomUUID();
}

let lastMillis = 0;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562): the millisecond of `now` in the first 48 bits, then a 12-bit counter, then
 * random bits. Ids made by one process increase strictly, also within one millisecond (the counter
 * goes up; past 4095 the millisecond moves on), and never go back when the clock does. PostgreSQL
 * compares uuids byte by byte, so ordering by such an id is ordering by creation.
 */
export function newTimeOrderedId(now: number = Date.now()): string {
  if (now > lastMillis) {
    lastMillis = now;
    counter = randomInt(0, 2048);
  } else if (++counter > 0xfff) {
    lastMillis += 1;
    counter = 0;
  }
  const bytes = randomBytes(16);
  let millis = lastMillis;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = millis % 256;
    millis = Math.floor(millis / 256);
  }
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
