import fc from 'fast-check';
import { crlfRecords, csvSelectList } from './csv-copy';
import type { TableColumn } from './table';

/** A record as PostgreSQL's COPY ... (FORMAT csv) writes it: quoted when a comma, quote, CR or LF is inside. */
const record = (fields: string[], end: string) => fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',') + end;

async function collect(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const piece of crlfRecords((async function* () {
    yield* chunks;
  })())) out.push(piece);
  return Buffer.concat(out);
}

describe('crlfRecords: PostgreSQL CSV records with RFC 4180 line ends', () => {
  it('ends every record with CRLF and leaves an LF inside a quoted field as it is, wherever the chunks are cut', async () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'ñ', ',', '"', '\n', '\r', ' ', '='), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), async (rows, cuts) => {
        const lf = Buffer.from(rows.map((r) => record(r, '\n')).join(''), 'utf8');
        const crlf = Buffer.from(rows.map((r) => record(r, '\r\n')).join(''), 'utf8');
        const at = [...new Set(cuts.map((c) => (lf.length === 0 ? 0 : c % lf.length)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i, all) => lf.subarray(from, all[i + 1] ?? lf.length)).filter((c) => c.length > 0);
        expect((await collect(chunks)).equals(crlf)).toBe(true);
      }),
    );
  });

  it('keeps a quoted field across chunks: the LF after its closing quote ends the record', async () => {
    const out = await collect([Buffer.from('a,"x\n'), Buffer.from('y"\nb,c\n')]);
    expect(out.toString()).toBe('a,"x\ny"\r\nb,c\r\n');
  });
});

describe('csvSelectList: the cells as csv-writer writes them', () => {
  const columns: Array<TableColumn<unknown>> = [
    { header: 'memo', type: 'text', value: () => null, sql: 'j.memo' },
    { header: 'id', type: 'id', value: () => null, sql: 'j.id' },
    { header: 'debit', type: 'amount', exponent: 2, value: () => null, sql: 'j.amount' },
    { header: 'clp', type: 'amount', exponent: 0, value: () => null, sql: 'j.amount' },
    { header: 'day', type: 'date', value: () => null, sql: 'j.day' },
  ];
  it('neutralises text that begins like a formula and writes an empty text as no field; amounts exactly in major units', () => {
    expect(csvSelectList(columns)).toBe(
      "NULLIF(CASE WHEN ascii(j.memo) IN (61, 43, 45, 64, 9, 13) THEN '''' || (j.memo) ELSE (j.memo)::text END, ''), (j.id), ((j.amount) * 0.01), (j.amount), to_char(j.day, 'YYYY-MM-DD')",
    );
  });
  it('refuses a column without SQL', () => {
    expect(() => csvSelectList([{ header: 'x', type: 'text', value: () => null }])).toThrow(/no SQL/);
  });
});
