import { randomUUID } from 'node:crypto';
import { singleDte } from './dte-xml';
import type { Agent } from './world';

/**
 * One Entity with something of every kind the Entity routes name by id: a Book (optional), a
 * group, accounts (balance, open-item receivable, income), a partner, a Dimension with a value,
 * booked entries with open-item lines and an allocation between them, a reversed entry and a
 * scheduled entry. Dated for a clock standing on 2026-06-15 (the scheduled entry is in July).
 */
export interface LedgerFixture {
  entityId: string;
  bookId: string | null;
  groupId: string;
  cash: string;
  receivable: string;
  sales: string;
  partnerId: string;
  dimensionId: string;
  valueId: string;
  /** A cash debit against a sales credit tagged with the value and naming the partner. */
  saleEntryId: string;
  cashLineId: string;
  salesLineId: string;
  /** Receivable debit (invoice) and receivable credit (payment), partly settled by `allocationId`. */
  invoiceEntryId: string;
  receivableDebitLineId: string;
  receivableCreditLineId: string;
  allocationId: string;
  reversedEntryId: string;
  reversalEntryId: string;
  scheduledEntryId: string;
  /** A bank account mapped to `cash`, with one unbooked manual movement. */
  bankAccountId: string;
  movementId: string;
  /** An unbooked AR invoice to the partner (issue 18) and an imported DTE, not linked. */
  documentInvoiceId: string;
  dteId: string;
}

export async function buildLedgerFixture(agent: Agent, entityId: string, options: { withBook?: boolean } = {}): Promise<LedgerFixture> {
  const base = `/api/entities/${entityId}`;
  const created = async (path: string, body: Record<string, unknown>) => {
    const res = await agent.post(`${base}${path}`).send(body);
    if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const bookId = options.withBook ? (await created('/books', { id: randomUUID(), name: 'IFRS' })).id : null;
  const groupId = (await created('/ledger/account-groups', { id: randomUUID(), codePrefix: '11', name: 'Activo corriente', type: 'asset' })).group.id;
  const account = async (code: string, type: string, tracking: string, subtype: string | null, group: string | null = null) =>
    (await created('/ledger/accounts', { id: randomUUID(), name: `Cuenta ${code}`, code, type, tracking, subtype, groupId: group })).account.id as string;
  const cash = await account('1101', 'asset', 'balance', null, groupId);
  const receivable = await account('1105', 'asset', 'open_item', 'receivable', groupId);
  const sales = await account('4101', 'income', 'balance', null);
  const partnerId = (await created('/partners', { id: randomUUID(), name: 'Cliente Uno SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' })).id;
  const dimensionId = (await created('/dimensions', { id: randomUUID(), name: 'Centro de costo' })).id;
  const valueId = (await created(`/dimensions/${dimensionId}/values`, { id: randomUUID(), code: 'CC-1', name: 'Santiago' })).id;

  const entry = (lines: Array<Record<string, unknown>>, entryDate = '2026-06-01') =>
    created('/ledger/entries', { id: randomUUID(), entryDate, memo: 'Fixture', newLedgerEntryLines: lines });
  const sale = await entry([
    { side: 'debit', ledgerAccountId: cash, amount: 1000 },
    { side: 'credit', ledgerAccountId: sales, amount: 1000, partnerId, dimensionValueIds: [valueId] },
  ]);
  const invoice = await entry([
    { side: 'debit', ledgerAccountId: receivable, amount: 500, partnerId },
    { side: 'credit', ledgerAccountId: sales, amount: 500 },
  ]);
  const payment = await entry([
    { side: 'debit', ledgerAccountId: cash, amount: 300 },
    { side: 'credit', ledgerAccountId: receivable, amount: 300, partnerId },
  ]);
  const allocationId = (
    await created('/ledger/allocations', { id: randomUUID(), debitLineId: invoice.lines[0].id, creditLineId: payment.lines[1].id, amount: 100 })
  ).id;
  const reversed = await entry([
    { side: 'debit', ledgerAccountId: cash, amount: 70 },
    { side: 'credit', ledgerAccountId: sales, amount: 70 },
  ], '2026-05-02');
  const reversal = await created(`/ledger/entries/${reversed.id}/reverse`, { id: randomUUID(), reversalDate: '2026-05-03' });
  const scheduled = await created('/ledger/scheduled-entries', {
    id: randomUUID(),
    entryDate: '2026-07-01',
    memo: 'Scheduled fixture',
    newLedgerEntryLines: [
      { side: 'debit', ledgerAccountId: cash, amount: 10 },
      { side: 'credit', ledgerAccountId: sales, amount: 10 },
    ],
  });
  const bankAccountId = (await created('/bank-accounts', { id: randomUUID(), name: 'Banco', kind: 'bank', ledgerAccountId: cash, currency: 'CLP' })).id;
  const movementId = (
    await created(`/bank-accounts/${bankAccountId}/movements`, { id: randomUUID(), movementDate: '2026-06-02', description: 'Abono', amount: 200, side: 'debit' })
  ).id;
  const documentInvoice = await created('/invoices', {
    id: randomUUID(),
    direction: 'ar',
    documentKind: 'invoice',
    documentNumber: '1001',
    issueDate: '2026-06-10',
    partnerId,
    currency: 'CLP',
    netAmount: 1000,
    taxAmount: 190,
    totalAmount: 1190,
  });
  const imported = await agent.post(`${base}/dtes/import`).set('content-type', 'application/xml').send(singleDte({ type: 33, folio: '1001', issuerRut: '76086428-5', receiverRut: '76086428-5', net: 1000, tax: 190 }));
  if (imported.status !== 201) throw new Error(`fixture: DTE import answered ${imported.status} ${JSON.stringify(imported.body)}`);
  return {
    documentInvoiceId: documentInvoice.id,
    dteId: imported.body.dtes[0].id,
    entityId,
    bookId,
    groupId,
    cash,
    receivable,
    sales,
    partnerId,
    dimensionId,
    valueId,
    saleEntryId: sale.id,
    cashLineId: sale.lines[0].id,
    salesLineId: sale.lines[1].id,
    invoiceEntryId: invoice.id,
    receivableDebitLineId: invoice.lines[0].id,
    receivableCreditLineId: payment.lines[1].id,
    allocationId,
    reversedEntryId: reversed.id,
    reversalEntryId: reversal.reversalEntry.id,
    scheduledEntryId: scheduled.id,
    bankAccountId,
    movementId,
  };
}
