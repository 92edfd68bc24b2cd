import { Clock, isoDateIn } from '../../src/platform/clock/clock';

/**
 * A clock that moves one second forward at every reading, so that audit rows never share an
 * instant ("newest first" is decided by time, not by the id tie-breaker); `jumpTo` moves it to a
 * later day for the date filters. No sleeping involved.
 */
export class TickingClock extends Clock {
  private instant = new Date('2026-03-02T12:00:00.000Z');

  now(): Date {
    this.instant = new Date(this.instant.getTime() + 1000);
    return new Date(this.instant);
  }

  today(): string {
    return isoDateIn('America/Santiago', this.instant);
  }

  jumpTo(iso: string): void {
    const target = new Date(iso);
    if (target <= this.instant) throw new Error(`the clock only moves forward (${iso})`);
    this.instant = target;
  }
}
