import { randomUUID } from 'node:crypto';
import { isoDateIn } from '../src/platform/clock/clock';
import { countRows } from './harness/db-checks';
import { createTestApp, TestApp } from './harness/test-app';
import { createEntity, createLedgerAccount, createOrganization, signInStaff } from './harness/world';

/**
 * D5: "today" is the date in BUSINESS_TIMEZONE. No clock is injected here: the service runs on its
 * own clock in the configured zone. Kiritimati (UTC+14) is always a day or two ahead of Pago Pago
 * (UTC-11), so Kiritimati's today is in the past or present there and in the future here.
 */
describe('today is the date in BUSINESS_TIMEZONE (D5)', () => {
  const kiritimati = 'Pacific/Kiritimati';
  const pagoPago = 'Pacific/Pago_Pago';

  async function postTodayOf(zoneOfDate: string, serviceZone: string): Promise<{ status: number; code?: string; written: number }> {
    const t: TestApp = await createTestApp({ env: { BUSINESS_TIMEZONE: serviceZone } });
    try {
      const staff = await signInStaff(t);
      const { id: entityId } = await createEntity(staff, await createOrganization(staff));
      const cash = await createLedgerAccount(staff, entityId, { code: '1101', type: 'asset', tracking: 'balance' });
      const sales = await createLedgerAccount(staff, entityId, { code: '4101', type: 'income', tracking: 'balance' });
      // Asked again if a midnight of either zone passed while the request was under way.
      for (;;) {
        const before = [isoDateIn(zoneOfDate, new Date()), isoDateIn(serviceZone, new Date())];
        const id = randomUUID();
        const res = await staff.post(`/api/entities/${entityId}/ledger/entries`).send({
          id,
          entryDate: before[0],
          memo: 'today',
          newLedgerEntryLines: [
            { side: 'debit', ledgerAccountId: cash, amount: 1 },
            { side: 'credit', ledgerAccountId: sales, amount: 1 },
          ],
        });
        const after = [isoDateIn(zoneOfDate, new Date()), isoDateIn(serviceZone, new Date())];
        if (before.join() === after.join()) {
          return { status: res.status, code: res.body.code, written: await countRows(t, 'ledger_entries', 'id = $1', [id]) };
        }
      }
    } finally {
      await t.close();
    }
  }

  it("takes an entry dated Kiritimati's today when the service runs on Kiritimati's time", async () => {
    expect(await postTodayOf(kiritimati, kiritimati)).toEqual({ status: 201, code: undefined, written: 1 });
  });

  it("refuses the same date as in the future (409 LEDGER_ENTRY_DATE_IN_FUTURE_ERROR) when the service runs on Pago Pago's time", async () => {
    expect(await postTodayOf(kiritimati, pagoPago)).toEqual({ status: 409, code: 'LEDGER_ENTRY_DATE_IN_FUTURE_ERROR', written: 0 });
  });
});
