import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { readStatement, statementAmount, statementDate } from './statement';

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');

describe('statement rows (D78)', () => {
  it('reads every signed integer, grouped by . in thousands or not, as itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.boolean(), (value, grouped) => {
        const digits = String(Math.abs(value));
        const text = `${value < 0 ? '-' : ''}${grouped ? group(digits) : digits}`;
        expect(statementAmount(text)).toBe(value === 0 ? 0 : value);
      }),
    );
  });

  it('refuses decimals, commas, misplaced separators and values past 2^53 - 1', () => {
    for (const text of ['1.5', '10,50', '1.23', '12.3456', '.123', '1..234', '9007199254740992', '', '-', '1e3', ' 1 2']) expect(statementAmount(text)).toBeNull();
  });

  it('reads the three date formats to the same day, and refuses days that do not exist', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        const iso = date.toISOString().slice(0, 10);
        const [y, m, d] = iso.split('-');
        expect([statementDate(iso), statementDate(`${d}-${m}-${y}`), statementDate(`${d}/${m}/${y}`)]).toEqual([iso, iso, iso]);
      }),
    );
    for (const text of ['2026-02-29', '31-04-2026', '2026/01/01', '01-02/2026', '1-2-2026']) expect(statementDate(text)).toBeNull();
  });

  it('gives identical rows of one file different content hashes, and the same file the same hashes', () => {
    const records = [['date', 'description', 'amount'], ['2026-01-01', 'Café', '-100'], ['2026-01-01', 'Café', '-100']];
    const [a, b] = readStatement(records);
    expect(a.contentHash).not.toBe(b.contentHash);
    expect(readStatement(records).map((r) => r.contentHash)).toEqual([a.contentHash, b.contentHash]);
  });

  it('hashes a row\'s content as rows already landed were (sha256 of the fields and the occurrence), so a file imported before still lands nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((d) => /^[^\p{Cc}\p{Cf};,"]+$/u.test(d) && d.trim() === d && d.normalize('NFC') === d), fc.integer({ min: 1, max: 10 ** 9 }), (description, amount) => {
        const [first, second] = readStatement([['date', 'description', 'amount', 'reference'], ['2026-03-01', description, `-${amount}`, 'R'], ['2026-03-01', description, `-${amount}`, 'R']]);
        const content = ['2026-03-01', description, String(-amount), 'R'].join('\u0000');
        expect(first.contentHash).toBe(createHash('sha256').update(`${content}\u00001`).digest('hex'));
        expect(second.contentHash).toBe(createHash('sha256').update(`${content}\u00002`).digest('hex'));
      }),
    );
  });
});
