/** D5: the time of the service; "today" is the date in the business time zone. Tests fix it. */
export abstract class Clock {
  abstract now(): Date;
  /** Today's ISO date (YYYY-MM-DD) in the business time zone. */
  abstract today(): string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

export function isoDateIn(timeZone: string, instant: Date): string {
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD. Building a format is costly: one per time zone.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(instant);
}

export class SystemClock extends Clock {
  constructor(private readonly timeZone: string) {
    super();
  }

  now(): Date {
    return new Date();
  }

  today(): string {
    return isoDateIn(this.timeZone, this.now());
  }
}

/** A clock that stands still unless moved: for tests. */
export class FixedClock extends Clock {
  constructor(
    private instant: Date,
    private readonly timeZone = 'America/Santiago',
  ) {
    super();
  }

  now(): Date {
    return new Date(this.instant);
  }

  today(): string {
    return isoDateIn(this.timeZone, this.instant);
  }

  set(instant: Date): void {
    this.instant = instant;
  }

  advance(milliseconds: number): void {
    this.instant = new Date(this.instant.getTime() + milliseconds);
  }
}
