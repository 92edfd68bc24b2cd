import fc from 'fast-check';
import { addDays, splitBefore, splitRange } from './month-ranges';

const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2024-01-01', n));

describe('splitting a range into months and edge days', () => {
  it('covers every day of the range exactly once', () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const split = splitRange(from, to);
        for (let d = addDays(from, -3); d <= addDays(to, 3); d = addDays(d, 1)) {
          const inMonths = split.months !== null && d >= split.months.first && d.slice(0, 7) <= split.months.last.slice(0, 7);
          const inDays = split.days.filter((s) => d >= s.from && d <= s.to).length;
          expect((inMonths ? 1 : 0) + inDays).toBe(d >= from && d <= to ? 1 : 0);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reads whole months for month-aligned ranges', () => {
    expect(splitRange('2025-01-01', '2025-12-31')).toEqual({
      months: { first: '2025-01-01', last: '2025-12-01' },
      days: [
        { from: '9999-12-31', to: '0001-01-01' },
        { from: '9999-12-31', to: '0001-01-01' },
      ],
    });
    expect(splitBefore('2025-03-01')).toEqual({ monthsBefore: '2025-03-01', days: { from: '9999-12-31', to: '0001-01-01' } });
    expect(splitBefore('2025-03-10')).toEqual({ monthsBefore: '2025-03-01', days: { from: '2025-03-01', to: '2025-03-09' } });
  });
});
