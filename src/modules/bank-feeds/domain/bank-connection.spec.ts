import fc from 'fast-check';
import { addDays } from '../../../../libs/shared-kernel/src';
import { syncWindow } from './bank-connection';

const isoDate = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('syncWindow (D69)', () => {
  it('reads 90 days back on the first sync and from the last sync day minus 7 days after, never past today', () => {
    fc.assert(
      fc.property(isoDate, fc.option(isoDate, { nil: null }), (today, last) => {
        const window = syncWindow(today, last);
        expect(window.until).toBe(today);
        expect(window.since <= window.until).toBe(true);
        if (last === null) expect(window.since).toBe(addDays(today, -90));
        else expect(window.since).toBe(addDays(last < today ? last : today, -7));
      }),
    );
  });

  it('addDays walks calendar days both ways', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
