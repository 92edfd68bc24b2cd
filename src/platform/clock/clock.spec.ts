import { FixedClock, isoDateIn } from './clock';

describe('business date (D5)', () => {
  it('is the date in the business time zone, not UTC', () => {
    // 02:00 UTC on 1 March is still 28 February in Santiago (UTC-3 in summer).
    expect(isoDateIn('America/Santiago', new Date('2026-03-01T02:00:00Z'))).toBe('2026-02-28');
    expect(isoDateIn('UTC', new Date('2026-03-01T02:00:00Z'))).toBe('2026-03-01');
  });

  it('can be fixed and moved in tests', () => {
    const clock = new FixedClock(new Date('2026-06-15T12:00:00Z'));
    expect(clock.today()).toBe('2026-06-15');
    clock.advance(24 * 3600 * 1000);
    expect(clock.today()).toBe('2026-06-16');
  });
});
