import type { TableColumn } from '../../../../platform/exports/table';
import type { BankMovementResponse } from './banking.dto';

/** D93: the movements list as a table, a row per movement, its side and amount as `debit` and `credit` (in the account's currency). */
export function movementColumns(exponent: number): Array<TableColumn<BankMovementResponse>> {
  return [
    { header: 'id', type: 'text', value: (m) => m.id },
    { header: 'entityId', type: 'text', value: (m) => m.entityId },
    { header: 'bankAccountId', type: 'text', value: (m) => m.bankAccountId },
    { header: 'movementDate', type: 'date', value: (m) => m.movementDate },
    { header: 'description', type: 'text', value: (m) => m.description },
    { header: 'debit', type: 'amount', exponent, value: (m) => (m.side === 'debit' ? m.amount : null) },
    { header: 'credit', type: 'amount', exponent, value: (m) => (m.side === 'credit' ? m.amount : null) },
    { header: 'reference', type: 'text', value: (m) => m.reference },
    { header: 'counterpartyName', type: 'text', value: (m) => m.counterpartyName },
    { header: 'counterpartyTaxId', type: 'text', value: (m) => m.counterpartyTaxId },
    { header: 'source', type: 'text', value: (m) => m.source },
    { header: 'providerMovementId', type: 'text', value: (m) => m.providerMovementId },
    { header: 'ledgerEntryId', type: 'text', value: (m) => m.ledgerEntryId },
    { header: 'createdAt', type: 'timestamp', value: (m) => m.createdAt },
    { header: 'updatedAt', type: 'timestamp', value: (m) => m.updatedAt },
  ];
}
