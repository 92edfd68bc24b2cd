import fc from 'fast-check';
import { addDays } from '../../../../libs/shared-kernel/src';
import { splitBefore, splitRange } from './month-ranges';

const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2024-01-01', n));
/** Two days near one end of the range dates may take (1000-01-01 to 9999-12-31). */
const edgeDays = fc
  .tuple(fc.constantFrom('1000-01-01', '9998-11-26'), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }))
  .map(([start, a, b]) => [addDays(start, a), addDays(start, b)] as const);

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

  it('covers every day exactly once at both ends of the calendar, December 9999 included', () => {
    fc.assert(
      fc.property(edgeDays, ([a, b]) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const split = splitRange(from, to);
        for (let d = from; d <= to && /^\d{4}-/.test(d); d = addDays(d, 1)) {
          const inMonths = split.months !== null && d >= split.months.first && d.slice(0, 7) <= split.months.last.slice(0, 7);
          expect((inMonths ? 1 : 0) + split.days.filter((s) => d >= s.from && d <= s.to).length).toBe(1);
        }
        for (const date of [split.months?.first, split.months?.last, ...split.days.flatMap((s) => [s.from, s.to])]) {
          if (date !== undefined) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        }
      }),
      { numRuns: 100 },
    );
    // A start in December 9999 that is not its first day has no whole month after it: it once
    // named "+010000-01" as one and PostgreSQL refused it (500).
    expect(splitRange('9999-12-15', '9999-12-31')).toEqual({ months: null, days: [{ from: '9999-12-15', to: '9999-12-31' }, { from: '9999-12-31', to: '0001-01-01' }] });
    expect(splitRange('9999-12-01', '9999-12-31').months).toEqual({ first: '9999-12-01', last: '9999-12-01' });
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
