import fc from 'fast-check';
import { carriedCreditOf, F29_CODES, F29Sum, ppm, ppmRateOf, propuestaF29 } from './f29';
import { PeriodDocument, purchaseSalesRegister } from './purchase-sales-register';
import { reconcile, ReconciledDocument } from './rcv-reconciliation';
import { headerKey, rcvLayout, rcvRow } from './rcv-file';
import { taxPeriod } from './tax-period';

const TYPES = [33, 34, 39, 41, 46, 56, 61, 110, 111, 112];
const amount = fc.bigInt({ min: 0n, max: 10n ** 12n });

describe('propuesta F29 (D92 item 3)', () => {
  const sum = fc.record({
    direction: fc.constantFrom<'ar' | 'ap'>('ar', 'ap'),
    dteType: fc.constantFrom(...TYPES),
    count: fc.integer({ min: 1, max: 1000 }),
    exemptAmount: amount,
    netAmount: amount,
    taxAmount: amount,
    totalAmount: amount,
  });

  it('has every code; 089 and 077 are the two sides of 538 − 537, one of them 0; 091 = 089 + 062', () => {
    fc.assert(
      fc.property(fc.array(sum, { maxLength: 20 }), fc.bigInt({ min: 0n, max: 10n ** 12n }), (sums: F29Sum[], carried) => {
        const codes = propuestaF29(sums, { carriedCredit: carried, ppmRate: '0.25' });
        expect(Object.keys(codes).sort()).toEqual([...F29_CODES].sort());
        expect(codes['089'] - codes['077']).toBe(codes['538'] - codes['537']);
        expect(codes['089'] >= 0n && codes['077'] >= 0n && (codes['089'] === 0n || codes['077'] === 0n)).toBe(true);
        expect(codes['091']).toBe(codes['089'] + codes['062']);
        expect(codes['504']).toBe(carried);
      }),
    );
  });

  it('rounds the PPM half up, exactly', () => {
    expect(ppm(1000n, '0.15')).toBe(2n);
    expect(ppm(1000n, '0.149')).toBe(1n);
    expect(ppm(1000n, '0.25')).toBe(3n);
    expect(ppm(9007199254740991n, '0.000000000001')).toBe(90n); // 90.07... exact, no float
    expect(ppm(0n, '12.5')).toBe(0n);
  });

  it('parses carriedCredit and ppmRate (D2b: query strings by their declared type)', () => {
    expect(carriedCreditOf(undefined)).toBe(0n);
    expect(carriedCreditOf('0042')).toBe(42n);
    expect(ppmRateOf(undefined)).toBe('0');
    expect(ppmRateOf('1.50')).toBe('1.50');
    for (const bad of ['-1', '1.5', '', ' 1', '9007199254740992', ['1']]) expect(() => carriedCreditOf(bad)).toThrow();
    for (const bad of ['-0.5', '1e2', '', '.5', '5.', '1234567890123', ['1']]) expect(() => ppmRateOf(bad)).toThrow();
  });
});

describe('the register (D92 item 1)', () => {
  it("sums each type's rows into its summary, credit notes negated, in rows ordered by type then folio", () => {
    const document = fc.record({
      dteType: fc.constantFrom(...TYPES),
      folio: fc.bigInt({ min: 1n, max: 10n ** 10n }).map(String),
      netAmount: amount,
      exemptAmount: amount,
      taxAmount: amount,
    });
    fc.assert(
      fc.property(fc.array(document, { maxLength: 30 }), (drafts) => {
        const documents: PeriodDocument[] = drafts.map((d, i) => ({
          ...d,
          invoiceId: `i${i}`,
          partnerId: 'p',
          issueDate: '2026-06-01',
          currency: 'CLP',
          exchangeRate: null,
          totalAmount: d.netAmount + d.exemptAmount + d.taxAmount,
        }));
        const { rows, summary } = purchaseSalesRegister(documents, new Map(), { exponentOf: () => 0 });
        expect(rows).toHaveLength(documents.length);
        for (let i = 1; i < rows.length; i++) {
          const [a, b] = [rows[i - 1], rows[i]];
          expect(a.dteType < b.dteType || (a.dteType === b.dteType && BigInt(a.folio) <= BigInt(b.folio))).toBe(true);
        }
        expect(summary.map((s) => s.dteType)).toEqual([...new Set(rows.map((r) => r.dteType))]);
        for (const s of summary) {
          const mine = rows.filter((r) => r.dteType === s.dteType);
          const sign = s.dteType === 61 || s.dteType === 112 ? -1n : 1n;
          expect(s.count).toBe(mine.length);
          expect(s.totalAmount).toBe(sign * mine.reduce((n, r) => n + r.totalAmount, 0n));
        }
      }),
    );
  });

  it('converts a foreign-currency invoice by D7, each amount half up', () => {
    const { rows } = purchaseSalesRegister(
      [{ invoiceId: 'i', dteType: 110, folio: '007', partnerId: 'p', issueDate: '2026-06-01', currency: 'USD', exchangeRate: '950.5', exemptAmount: 100025n, netAmount: 0n, taxAmount: 0n, totalAmount: 100025n }],
      new Map([['p', { name: 'Buyer', taxId: 'X' }]]),
      { exponentOf: (c) => (c === 'USD' ? 2 : 0) },
    );
    expect(rows[0]).toMatchObject({ folio: '7', exemptAmount: 950738n, totalAmount: 950738n, partnerName: 'Buyer', partnerTaxId: 'X' });
  });
});

describe('the reconciliation (D92 item 2)', () => {
  const doc = fc.record({
    dteType: fc.constantFrom(33, 61),
    folio: fc.integer({ min: 1, max: 5 }).map(String),
    partnerTaxId: fc.constantFrom('1-9', '76086428-5'),
    exemptAmount: fc.bigInt({ min: -3n, max: 3n }),
    netAmount: fc.bigInt({ min: 0n, max: 3n }),
    taxAmount: fc.constant(0n),
    totalAmount: fc.constant(0n),
  });

  it('places every document of both sides exactly once, and counts the rows', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 15 }), fc.array(doc, { maxLength: 15 }), (sii: ReconciledDocument[], books: ReconciledDocument[]) => {
        const { counts, rows } = reconcile(sii, books);
        expect(rows.filter((r) => r.sii !== null)).toHaveLength(sii.length);
        expect(rows.filter((r) => r.books !== null)).toHaveLength(books.length);
        expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(rows.length);
        for (const row of rows) {
          if (row.status === 'matched') expect(row.sii).toEqual(row.books);
          if (row.status === 'amount_mismatch') expect(row.sii).not.toEqual(row.books);
          for (const side of [row.sii, row.books]) if (side) expect(Object.values(side).every((v) => v >= 0n)).toBe(true);
        }
      }),
    );
  });
});

describe('the RCV file (D92 item 2)', () => {
  it('matches header names ignoring case, accents and spaces', () => {
    expect(headerKey(' Razón  Social ')).toBe('razonsocial');
    expect(headerKey('MONTO IVA recuperable')).toBe('montoivarecuperable');
    expect(headerKey('Rut cliente')).toBe(headerKey('RUT CLIENTE'));
  });

  it('reads a row: RUT with dots, folio with leading zeros, DD/MM/YYYY, empty amounts as 0', () => {
    const layout = rcvLayout(['Tipo Doc', 'RUT Proveedor', 'Razon Social', 'Folio', 'Fecha Docto', 'Monto Exento', 'Monto Neto', 'Monto IVA Recuperable', 'Monto Total']);
    expect(rcvRow(['33', '76.086.428-5', ' Ñandú ', '0042', '28/02/2026', '', '100', '19', '119'], layout, 2)).toEqual({
      line: 2,
      dteType: 33,
      folio: '42',
      partnerTaxId: '76086428-5',
      partnerName: 'Ñandú',
      issueDate: '2026-02-28',
      exemptAmount: 0n,
      netAmount: 100n,
      taxAmount: 19n,
      totalAmount: 119n,
    });
    expect(() => rcvRow(['33', '76.086.428-5', 'X', '1', '29/02/2026', '0', '1', '0', '1'], layout, 7)).toThrow(/row 7/);
  });

  it('takes periods YYYY-MM with their last day', () => {
    expect(taxPeriod('2024-02')).toEqual({ period: '2024-02', from: '2024-02-01', to: '2024-02-29' });
    expect(taxPeriod('2026-12')).toEqual({ period: '2026-12', from: '2026-12-01', to: '2026-12-31' });
    for (const bad of ['2026-00', '2026-13', '0000-01', '2026-1', 2026]) expect(() => taxPeriod(bad)).toThrow();
  });
});
