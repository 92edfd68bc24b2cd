import fc from 'fast-check';
import { convertMinorUnits } from '../../../../libs/shared-kernel/src';
import { bookingLines } from './booking';
import { DOCUMENT_KINDS, Invoice, isCreditNote } from './invoice';

const EXPONENT: Record<string, number> = { CLP: 0, USD: 2, CLF: 4 };
const currencies = { functional: 'CLP', exponentOf: (c: string) => EXPONENT[c] };
const accounts = { openItemAccountId: 'open', counterAccountId: 'counter', taxAccountId: 'tax', partnerId: 'p', dimensionValueIds: ['v'] };

const invoiceArb = fc
  .record({
    direction: fc.constantFrom('ar' as const, 'ap' as const),
    documentKind: fc.constantFrom(...DOCUMENT_KINDS),
    netAmount: fc.integer({ min: 0, max: 1e11 }),
    exemptAmount: fc.integer({ min: 0, max: 1e11 }),
    taxAmount: fc.integer({ min: 0, max: 1e11 }),
    currency: fc.constantFrom('CLP', 'USD', 'CLF'),
    rate: fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 999999 })).map(([w, f]) => `${w}.${String(f).padStart(6, '0')}`),
  })
  .filter((i) => i.netAmount + i.exemptAmount + i.taxAmount > 0 && (i.currency === 'CLP' || Number(i.rate) > 0))
  .map(
    (i): Invoice => ({
      entityId: 'e',
      id: 'i',
      direction: i.direction,
      documentKind: i.documentKind,
      documentNumber: '1',
      issueDate: '2026-06-10',
      dueDate: null,
      partnerId: 'p',
      currency: i.currency,
      exchangeRate: i.currency === 'CLP' ? null : i.rate,
      netAmount: i.netAmount,
      exemptAmount: i.exemptAmount,
      taxAmount: i.taxAmount,
      totalAmount: i.netAmount + i.exemptAmount + i.taxAmount,
      servicePeriodStart: null,
      servicePeriodEnd: null,
      description: null,
      bookStatus: 'unbooked',
      ledgerEntryId: null,
      openItemLineId: null,
      dteId: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    }),
  );

describe('bookingLines (D62)', () => {
  it('always balances, every line is its own exact D7 conversion, and the open item carries the total on its side', () => {
    fc.assert(
      fc.property(invoiceArb, (invoice) => {
        const lines = bookingLines(invoice, accounts, currencies);
        const sum = (side: string) => lines.filter((l) => l.side === side).reduce((s, l) => s + l.amount, 0);
        expect(sum('debit')).toBe(sum('credit'));
        const openSide = (invoice.direction === 'ar') !== isCreditNote(invoice.documentKind) ? 'debit' : 'credit';
        const open = lines.filter((l) => l.isOpenItem);
        expect(open.every((l) => l.side === openSide && l.ledgerAccountId === 'open')).toBe(true);
        expect(lines.filter((l) => !l.isOpenItem).every((l) => l.side !== openSide)).toBe(true);
        const foreign = invoice.currency !== 'CLP';
        for (const line of lines) {
          expect(line.partnerId).toBe('p');
          if (foreign) {
            expect(line.transactionCurrency).toBe(invoice.currency);
            expect(line.amount).toBe(convertMinorUnits(line.transactionAmount!, invoice.exchangeRate!, EXPONENT[invoice.currency], 0));
          } else {
            expect([line.transactionCurrency, line.transactionAmount, line.exchangeRate]).toEqual([null, null, null]);
            expect(line.amount).toBeGreaterThan(0);
          }
        }
        // The open item's transaction amounts (or amounts) add up to the invoice total.
        expect(open.reduce((s, l) => s + (foreign ? l.transactionAmount! : l.amount), 0)).toBe(invoice.totalAmount);
        // No tax line without tax; the dimension values only on the counter line.
        expect(lines.some((l) => l.ledgerAccountId === 'tax')).toBe(invoice.taxAmount > 0);
        expect(lines.filter((l) => l.dimensionValueIds.length > 0).map((l) => l.ledgerAccountId)).toEqual(invoice.netAmount + invoice.exemptAmount > 0 ? ['counter'] : []);
      }),
      { numRuns: 500 },
    );
  });
});
