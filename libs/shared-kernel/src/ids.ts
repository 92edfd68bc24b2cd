import { randomUUID } from 'node:crypto';
import { v7 as uuidV7 } from 'uuid';

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

/**
 * A UUIDv7 (RFC 9562): the millisecond of creation first, then a counter. The `uuid` package keeps
 * one process's ids strictly increasing, also within one millisecond and when the clock goes back.
 * PostgreSQL compares uuids byte by byte, so ordering by such an id is ordering by creation.
 */
export function newTimeOrderedId(): string {
  return uuidV7();
}
