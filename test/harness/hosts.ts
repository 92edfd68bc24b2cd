import { randomUUID } from 'node:crypto';
import type { Agent } from './world';
import { createLedgerAccount } from './world';

/** Ledger entries to hang attachments, comments and To-dos on (the host kind built so far). */
export interface EntryHosts {
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
  return {
    entry: (memo = 'Venta factura 1001') => post('entries', '2026-06-10', memo),
    scheduled: (memo = 'Arriendo enero') => post('scheduled-entries', '2099-01-15', memo),
  };
}
