import { isUuid, newTimeOrderedId } from './ids';

describe('newTimeOrderedId', () => {
  it('makes version-7 UUIDs carrying the millisecond of creation', () => {
    const before = Date.now();
    const id = newTimeOrderedId();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now());
  });

  it('increases strictly, also among many ids of one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newTimeOrderedId());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });
});
