import { convertMinorUnits } from '../../../../libs/shared-kernel/src';
import { Invoice, isCreditNote } from './invoice';

export type Side = 'debit' | 'credit';

/** A line of an invoice's entry, before the ledger judges it. */
export interface BookingLine {
  side: Side;
  ledgerAccountId: string;
  amount: number;
  description: string;
  partnerId: string | null;
  dimensionValueIds: string[];
  transactionCurrency: string | null;
  transactionAmount: number | null;
  exchangeRate: string | null;
  /** The receivable or payable line (the invoice's open item). */
  isOpenItem: boolean;
}

export interface BookingAccounts {
  openItemAccountId: string;
  counterAccountId: string;
  /** Null when the invoice has no tax (no tax line then, D64). */
  taxAccountId: string | null;
  partnerId: string | null;
  dimensionValueIds: string[];
}

export interface Currencies {
  functional: string;
  exponentOf(currency: string): number;
}

const flip = (side: Side): Side => (side === 'debit' ? 'credit' : 'debit');

/**
 * D62: the lines of an invoice's entry. AR: debit the open item for the total, credit the counter
 * account for net + exempt and the tax account for the tax. AP: the mirror. Credit notes swap
 * the sides. No line for a zero amount (no tax line when the tax is zero).
 *
 * A foreign-currency invoice puts the trio (currency, amount, rate) on every line, each amount
 * converted by D7. Converting the total and its parts apart can differ by a unit of rounding;
 * then the open item is written as one line per part (each the mirror of its counter-side line),
 * so the entry balances exactly and every line is its own exact conversion.
 */
export function bookingLines(invoice: Invoice, accounts: BookingAccounts, currencies: Currencies): BookingLine[] {
  const openSide: Side = (invoice.direction === 'ar') !== isCreditNote(invoice.documentKind) ? 'debit' : 'credit';
  const foreign = invoice.currency !== currencies.functional;
  const convert = (amount: number) =>
    foreign ? convertMinorUnits(amount, invoice.exchangeRate!, currencies.exponentOf(invoice.currency), currencies.exponentOf(currencies.functional)) : amount;
  const line = (side: Side, ledgerAccountId: string, transactionAmount: number, description: string, isOpenItem: boolean, dimensionValueIds: string[] = []): BookingLine => ({
    side,
    ledgerAccountId,
    amount: convert(transactionAmount),
    description,
    partnerId: accounts.partnerId,
    dimensionValueIds,
    transactionCurrency: foreign ? invoice.currency : null,
    transactionAmount: foreign ? transactionAmount : null,
    exchangeRate: foreign ? invoice.exchangeRate : null,
    isOpenItem,
  });
  const number = invoice.documentNumber;
  const counterPart = invoice.netAmount + invoice.exemptAmount;
  const others: BookingLine[] = [];
  if (counterPart > 0) others.push(line(flip(openSide), accounts.counterAccountId, counterPart, `${number} net and exempt`, false, accounts.dimensionValueIds));
  if (invoice.taxAmount > 0) others.push(line(flip(openSide), accounts.taxAccountId!, invoice.taxAmount, `${number} tax`, false));
  const whole = line(openSide, accounts.openItemAccountId, invoice.totalAmount, `${number} total`, true);
  const parts = others.reduce((sum, l) => sum + l.amount, 0);
  const openItems =
    whole.amount === parts || others.length < 2
      ? [whole]
      : others.map((o) => line(openSide, accounts.openItemAccountId, o.transactionAmount!, `${number} total (${o === others[0] ? 'net and exempt' : 'tax'} part)`, true));
  return [...openItems, ...others];
}
