import { isUuid, newTimeOrderedId } from './ids';

describe('newTimeOrderedId', () => {
  it('makes version-7 UUIDs carrying the millisecond', () => {
    const id = newTimeOrderedId(Date.UTC(2026, 5, 15, 12));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(Date.UTC(2026, 5, 15, 12));
  });

  it('increases strictly, within one millisecond, past 4096 ids in it, and when the clock goes back', () => {
    const base = Date.UTC(2030, 0, 1);
    const ids = [
      ...Array.from({ length: 5000 }, () => newTimeOrderedId(base)),
      newTimeOrderedId(base - 1000),
      newTimeOrderedId(base + 10_000),
    ];
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });
});
