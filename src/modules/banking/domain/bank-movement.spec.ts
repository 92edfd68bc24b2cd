import { convertMinorUnits } from '../../../../libs/shared-kernel/src';
import { BankMovement, bookingLines } from './bank-movement';
import { OpenLine, rankCandidates } from './matching';

const movement = (side: 'debit' | 'credit', amount: number): BankMovement => ({
  entityId: 'e',
  id: 'm',
  bankAccountId: 'b',
  movementDate: '2026-03-01',
  description: 'Pago',
  amount,
  side,
  reference: null,
  counterpartyName: null,
  counterpartyTaxId: null,
  source: 'manual',
  providerMovementId: null,
  ledgerEntryId: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('booking lines (D66)', () => {
  it.each(['debit', 'credit'] as const)('puts the bank account on the movement side (%s) and the other account opposite, for the amount', (side) => {
    const lines = bookingLines(movement(side, 500), 'bank', { ledgerAccountId: 'other', partnerId: 'p' }, null);
    expect(lines.map((l) => [l.side, l.ledgerAccountId, l.amount])).toEqual([
      [side, 'bank', 500],
      [side === 'debit' ? 'credit' : 'debit', 'other', 500],
    ]);
    expect(lines[1]).toMatchObject({ partnerId: 'p', description: 'Pago' });
  });

  it('books a foreign-currency movement in functional units with the transaction trio on both lines', () => {
    const functionalAmount = convertMinorUnits(12_345, '950.5', 2, 0);
    const lines = bookingLines(movement('debit', 12_345), 'bank', { ledgerAccountId: 'other' }, { currency: 'USD', rate: '950.5', functionalAmount });
    expect(functionalAmount).toBe(117_339);
    for (const line of lines) expect(line).toMatchObject({ amount: 117_339, transactionCurrency: 'USD', transactionAmount: 12_345, exchangeRate: '950.5' });
  });
});

describe('candidate ranking (D66)', () => {
  const line = (id: string, entryDate: string): OpenLine => ({
    id,
    entryId: `e-${id}`,
    entryDate,
    memo: 'x',
    description: null,
    ledgerAccountId: 'a',
    side: 'debit',
    amount: 900,
    allocatedAmount: 0,
    isOpenItem: true,
    status: 'active',
    bookId: null,
    partnerId: null,
    partnerTaxId: null,
  });

  it('counts days apart either way: a line a day after the movement ranks before one a month before', () => {
    const ranked = rankCandidates(movement('debit', 500), [line('before', '2026-01-30'), line('after', '2026-03-02')], { taxIds: new Set(), folioLineIds: new Set() });
    expect(ranked.map((r) => [r.line.id, r.reasons.daysApart])).toEqual([
      ['after', 1],
      ['before', 30],
    ]);
  });
});
