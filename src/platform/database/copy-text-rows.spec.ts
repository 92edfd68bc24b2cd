import fc from 'fast-check';
import { copyTextRows } from './read-cursor';

/** A value as COPY's text format writes it: NULL as \N; backslash, LF, CR, tab escaped. */
const field = (v: string | null) => (v === null ? '\\N' : v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t'));

async function read(chunks: Buffer[]) {
  const rows: Array<Array<string | null>> = [];
  for await (const batch of copyTextRows(
    (async function* () {
      yield* chunks;
    })(),
  ))
    rows.push(...batch);
  return rows;
}

describe('copyTextRows: rows of COPY ... TO STDOUT (text format)', () => {
  it('gives back every value (NULL as null, escapes undone, multibyte letters whole) wherever the chunks are cut', async () => {
    const value = fc.option(fc.string({ unit: fc.constantFrom('a', 'ñ', '€', '\\', '\n', '\r', '\t', 'N', ' '), maxLength: 6 }), { nil: null });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 5 }), async (rows, cuts) => {
        const bytes = Buffer.from(rows.map((r) => `${r.map(field).join('\t')}\n`).join(''), 'utf8');
        const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i, all) => bytes.subarray(from, all[i + 1] ?? bytes.length)).filter((c) => c.length > 0);
        expect(await read(chunks)).toEqual(rows);
      }),
    );
  });

  it('refuses a stream that ends inside a row', async () => {
    await expect(read([Buffer.from('a\tb\nc\t')])).rejects.toThrow(/inside a row/);
  });
});
