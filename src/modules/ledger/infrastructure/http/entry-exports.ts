import type { TableColumn } from '../../../../platform/exports/table';
import type { EntryResponse, ListedLineResponse } from './entries.dto';

/**
 * D93's tables of the ledger's lists: a row per JSON row, a column per field, a line's side and
 * amount as `debit` and `credit`. An entry's `lines` (an array) become `lineCount` and the sums of
 * its `debit` and `credit` lines; a line's Dimension Values, their codes joined by a space.
 */
export function lineColumns(exponent: number, exponentOf: (currency: string) => number): Array<TableColumn<ListedLineResponse>> {
  return [
    { header: 'id', type: 'text', value: (l) => l.id },
    { header: 'entryId', type: 'text', value: (l) => l.entryId },
    { header: 'entryDate', type: 'date', value: (l) => l.entryDate },
    { header: 'memo', type: 'text', value: (l) => l.memo },
    { header: 'status', type: 'text', value: (l) => l.status },
    { header: 'bookId', type: 'text', value: (l) => l.bookId },
    { header: 'ledgerAccountId', type: 'text', value: (l) => l.ledgerAccountId },
    { header: 'debit', type: 'amount', exponent, value: (l) => (l.side === 'debit' ? l.amount : null) },
    { header: 'credit', type: 'amount', exponent, value: (l) => (l.side === 'credit' ? l.amount : null) },
    { header: 'description', type: 'text', value: (l) => l.description },
    { header: 'partnerId', type: 'text', value: (l) => l.partnerId },
    { header: 'transactionCurrency', type: 'text', value: (l) => l.transactionCurrency },
    { header: 'transactionAmount', type: 'amount', exponent: (l) => (l.transactionCurrency ? exponentOf(l.transactionCurrency) : exponent), value: (l) => l.transactionAmount },
    { header: 'exchangeRate', type: 'text', value: (l) => l.exchangeRate },
    { header: 'dimensionValues', type: 'text', value: (l) => l.dimensionValues.map((v) => v.code).join(' ') },
    { header: 'openAmount', type: 'amount', exponent, value: (l) => l.openAmount },
  ];
}

const sum = (entry: EntryResponse, side: string) => entry.lines.reduce((total, l) => (l.side === side ? total + BigInt(l.amount) : total), 0n);

export function entryColumns(exponent: number): Array<TableColumn<EntryResponse>> {
  return [
    { header: 'id', type: 'text', value: (e) => e.id },
    { header: 'entityId', type: 'text', value: (e) => e.entityId },
    { header: 'bookId', type: 'text', value: (e) => e.bookId },
    { header: 'entryDate', type: 'date', value: (e) => e.entryDate },
    { header: 'memo', type: 'text', value: (e) => e.memo },
    { header: 'notes', type: 'text', value: (e) => e.notes },
    { header: 'status', type: 'text', value: (e) => e.status },
    { header: 'source', type: 'text', value: (e) => e.source },
    { header: 'reversalOfEntryId', type: 'text', value: (e) => e.reversalOfEntryId },
    { header: 'reversedByEntryId', type: 'text', value: (e) => e.reversedByEntryId },
    { header: 'createdAt', type: 'timestamp', value: (e) => e.createdAt },
    { header: 'updatedAt', type: 'timestamp', value: (e) => e.updatedAt },
    { header: 'lineCount', type: 'integer', value: (e) => e.lines.length },
    { header: 'debit', type: 'amount', exponent, value: (e) => sum(e, 'debit') },
    { header: 'credit', type: 'amount', exponent, value: (e) => sum(e, 'credit') },
  ];
}
