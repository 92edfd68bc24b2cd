import { randomUUID } from 'node:crypto';
import type { Agent } from './world';
import { createLedgerAccount } from './world';

/** Records to hang attachments, comments and To-dos on. */
export interface EntryHosts {
  /** An AR invoice `documentNumber` of 1,190 CLP to partner `Cliente Uno SpA`, unbooked. */
  invoice(documentNumber?: string): Promise<string>;
  /** A manual CLP movement of 2026-06-02, debit 250, on a bank account `Banco Uno` (made once). */
  movement(): Promise<{ id: string; bankAccountId: string }>;
  /** A booked entry of 2026-06-10, memo `Venta factura 1001`. */
  entry(memo?: string): Promise<string>;
  /** A scheduled entry of 2099-01-15. */
  scheduled(memo?: string): Promise<string>;
}

export async function entryHosts(staff: Agent, entityId: string): Promise<EntryHosts> {
  const receivable = await createLedgerAccount(staff, entityId, { code: '1105', type: 'asset', tracking: 'open_item', subtype: 'receivable' });
  const sales = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
  const post = async (path: string, entryDate: string, memo: string) => {
    const id = randomUUID();
    await staff
      .post(`/api/entities/${entityId}/ledger/${path}`)
      .send({
        id,
        entryDate,
        memo,
        newLedgerEntryLines: [
          { side: 'debit', ledgerAccountId: receivable, amount: 1000 },
          { side: 'credit', ledgerAccountId: sales, amount: 1000 },
        ],
      })
      .expect(201);
    return id;
  };
  let partnerId: string | undefined;
  const invoice = async (documentNumber = String(1000 + Math.floor(Math.random() * 1e8))) => {
    if (!partnerId) {
      partnerId = randomUUID();
      await staff.post(`/api/entities/${entityId}/partners`).send({ id: partnerId, name: 'Cliente Uno SpA', type: 'company', country: 'CL', taxId: '76.086.428-5' }).expect(201);
    }
    const id = randomUUID();
    await staff
      .post(`/api/entities/${entityId}/invoices`)
      .send({ id, direction: 'ar', documentKind: 'invoice', documentNumber, issueDate: '2026-06-10', partnerId, currency: 'CLP', netAmount: 1000, taxAmount: 190, totalAmount: 1190 })
      .expect(201);
    return id;
  };
  let bankAccountId: string | undefined;
  const movement = async () => {
    if (!bankAccountId) {
      const ledgerAccountId = await createLedgerAccount(staff, entityId, { code: '1102', type: 'asset', tracking: 'balance' });
      bankAccountId = randomUUID();
      await staff.post(`/api/entities/${entityId}/bank-accounts`).send({ id: bankAccountId, name: 'Banco Uno', kind: 'bank', ledgerAccountId, currency: 'CLP' }).expect(201);
    }
    const id = randomUUID();
    await staff.post(`/api/entities/${entityId}/bank-accounts/${bankAccountId}/movements`).send({ id, movementDate: '2026-06-02', description: 'Abono', amount: 250, side: 'debit' }).expect(201);
    return { id, bankAccountId };
  };
  return {
    invoice,
    movement,
    entry: (memo = 'Venta factura 1001') => post('entries', '2026-06-10', memo),
    scheduled: (memo = 'Arriendo enero') => post('scheduled-entries', '2099-01-15', memo),
  };
}
