import fc from 'fast-check';
import { decodeDateIdCursor, encodeDateIdCursor } from './cursors';
import { addDays, addMonths, dateOfDayNumber, dayNumber, daysBetween, isIsoDate, isIsoDateTime, isIsoInstant, isMonthEnd, monthEnd, monthStart, nextMonthStart } from './dates';

describe('dates the API takes (every one PostgreSQL takes too)', () => {
  it('takes calendar dates that exist, from 1000-01-01 through 9999-12-31', () => {
    for (const ok of ['2026-02-28', '2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31', '2026-04-30']) expect(isIsoDate(ok)).toBe(true);
    for (const bad of ['2026-02-29', '1900-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '0999-12-31', '99999-01-01', '2026-1-1', '2026-01-01T00:00:00Z', ' 2026-01-01', 20260101]) {
      expect({ bad, ok: isIsoDate(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('agrees with the calendar on every day of the range', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (date) =>
        isIsoDate(date.toISOString().slice(0, 10)),
      ),
    );
  });

  it('takes date-times with an offset up to ±14:00, and refuses what Date.parse rolls over', () => {
    for (const ok of ['2026-06-01T10:00Z', '2026-06-01T10:00:00Z', '2026-06-01T10:00:00.123456-04:00', '2026-06-01T23:59:59+14:00', '2026-06-01T00:00:00-13:59']) {
      expect({ ok, taken: isIsoDateTime(ok) }).toEqual({ ok, taken: true });
    }
    for (const bad of ['2026-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2030-01-01T00:00:00+23:59', '2030-01-01T00:00:00+14:01', '2030-01-01T00:00:00', '+099999-01-01T00:00:00Z']) {
      expect({ bad, taken: isIsoDateTime(bad) }).toEqual({ bad, taken: false });
    }
  });

  it('takes an instant only as toISOString writes it, in the date range', () => {
    expect(isIsoInstant('2026-06-01T10:00:00.000Z')).toBe(true);
    for (const bad of ['0000-01-01T00:00:00.000Z', '-000001-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00.000Z', '2026-06-01T10:00:00Z']) {
      expect({ bad, taken: isIsoInstant(bad) }).toEqual({ bad, taken: false });
    }
  });

  it('decodes a (date, id) cursor it wrote, and nothing it could not have written', () => {
    const id = '5f0c6a8e-9b1d-4c2e-8f3a-1b2c3d4e5f60';
    expect(decodeDateIdCursor(encodeDateIdCursor({ date: '2026-06-01', id }))).toEqual({ date: '2026-06-01', id });
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    for (const forged of [b64(`2026-02-30|${id}`), b64(`0000-01-01|${id}`), b64(`2026-06-01|${'-'.repeat(36)}`), b64(`2026-06-01|${id}|x`), b64('garbage'), '']) {
      expect({ forged, key: decodeDateIdCursor(forged) }).toEqual({ forged, key: null });
    }
  });
});

describe('calendar arithmetic (addDays, daysBetween: the one shared copy)', () => {
  const date = fc.integer({ min: dayNumber('1000-01-01'), max: dayNumber('9999-12-31') }).map(dateOfDayNumber);

  it('walks calendar days across months, leap days and years, both ways', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2100-03-01', -1)).toBe('2100-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('1970-01-01', -1)).toBe('1969-12-31');
    expect(daysBetween('2026-01-09', '2026-01-16')).toBe(7);
    expect(daysBetween('2026-01-16', '2026-01-09')).toBe(-7);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
  });

  it('addDays and daysBetween are inverse, and every result is a date the API takes', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -4000, max: 4000 }), (from, n) => {
        const to = addDays(from, n);
        fc.pre(to >= '1000-01-01' && to <= '9999-12-31');
        expect(isIsoDate(to)).toBe(true);
        expect(daysBetween(from, to)).toBe(n);
        expect(addDays(to, -n)).toBe(from);
        expect(to > from).toBe(n > 0);
      }),
    );
  });
});

describe('months (monthStart, addMonths, nextMonthStart, monthEnd, isMonthEnd: the one shared copy)', () => {
  const date = fc.integer({ min: dayNumber('1000-01-01'), max: dayNumber('9999-12-31') }).map(dateOfDayNumber);

  it('steps months across years and knows the length of each', () => {
    expect(monthStart('2026-02-17')).toBe('2026-02-01');
    expect(addMonths('2026-11-17', 2)).toBe('2027-01-01');
    expect(addMonths('2026-01-31', -1)).toBe('2025-12-01');
    expect(addMonths('2026-06-01', -18)).toBe('2024-12-01');
    expect(nextMonthStart('2026-12-31')).toBe('2027-01-01');
    expect(nextMonthStart('9999-12-01')).toBeNull();
    expect([monthEnd('2024-02-10'), monthEnd('2100-02-01'), monthEnd('2026-04-30'), monthEnd('2026-12-01')]).toEqual(['2024-02-29', '2100-02-28', '2026-04-30', '2026-12-31']);
    expect([isMonthEnd('2024-02-29'), isMonthEnd('2026-02-28'), isMonthEnd('2024-02-28')]).toEqual([true, true, false]);
  });

  it('agrees with day arithmetic: a month ends the day before the next one starts', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -240, max: 240 }), (d, n) => {
        const next = nextMonthStart(d);
        if (next !== null) expect(addDays(next, -1)).toBe(monthEnd(d));
        expect(isMonthEnd(d)).toBe(addDays(d, 1).slice(8) === '01');
        expect(monthStart(d) <= d && d <= monthEnd(d)).toBe(true);
        const months = Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1 + n;
        fc.pre(months >= 1000 * 12 && months < 10000 * 12);
        const moved = addMonths(d, n);
        expect(isIsoDate(moved)).toBe(true);
        expect(moved > d).toBe(n > 0);
        expect(addMonths(moved, -n)).toBe(monthStart(d));
      }),
    );
  });
});
