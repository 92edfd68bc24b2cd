/** D5: the time of the service; "today" is the date in the business time zone. Tests fix it. */
export abstract class Clock {
  abstract now(): Date;
  /** Today's ISO date (YYYY-MM-DD) in the business time zone. */
  abstract today(): string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The last answer: a date changes only on a whole second (time zone offsets are whole minutes). */
let last = { timeZone: '', second: NaN, date: '' };

export function isoDateIn(timeZone: string, instant: Date): string {
  const second = Math.floor(instant.getTime() / 1000);
  if (second === last.second && timeZone === last.timeZone) return last.date;
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD. Building a format is costly: one per time zone.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  const date = format.format(instant);
  // Every posting asks for today (issue 25: formatting it costs more than the rest of the check).
  last = { timeZone, second, date };
  return date;
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
