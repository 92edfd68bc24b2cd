import fc from 'fast-check';
import { FixedClock } from '../../../../platform/clock/clock';
import { BankProviderFailure } from '../../application/bank-provider';
import { SandboxBank } from './sandbox-bank';

const link = (connectionId: string) => ({ connectionId, linkToken: 'sandbox_lt_x' });

describe('SandboxBank (D77, D77a)', () => {
  const clock = new FixedClock(new Date('2026-06-15T16:00:00Z'));

  it('is deterministic from the connection id, and a day is the same whatever window reads it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), async (connectionId, a, b) => {
        const bank = new SandboxBank(clock, { dailyMovements: 3, failAtPage: 0 });
        const [account] = await bank.accounts(link(connectionId));
        const since1 = new Date(Date.parse('2026-06-15') - a * 86_400_000).toISOString().slice(0, 10);
        const since2 = new Date(Date.parse('2026-06-15') - b * 86_400_000).toISOString().slice(0, 10);
        const one = await bank.movements(link(connectionId), account.providerAccountId, { since: since1, until: '2026-06-15' });
        const two = await new SandboxBank(clock, { dailyMovements: 3, failAtPage: 0 }).movements(link(connectionId), account.providerAccountId, { since: since2, until: '2026-06-15' });
        const later = since1 > since2 ? since1 : since2;
        const key = (m: { providerMovementId: string; movementDate: string; amount: number; side: string }) => `${m.providerMovementId}|${m.movementDate}|${m.amount}|${m.side}`;
        expect(one.filter((m) => m.movementDate >= later).map(key)).toEqual(two.filter((m) => m.movementDate >= later).map(key));
        for (const m of one) {
          expect(m.amount).toBeGreaterThan(0);
          expect(Number.isSafeInteger(m.amount)).toBe(true);
          expect([0, 6]).not.toContain(new Date(`${m.movementDate}T00:00:00Z`).getUTCDay());
        }
      }),
      { numRuns: 30 },
    );
  });

  it('lists CLP checking, USD checking, CLP credit card; refuses an unknown exchange token as the caller\'s error', async () => {
    const bank = new SandboxBank(clock, { dailyMovements: 5, failAtPage: 0 });
    expect((await bank.accounts(link('c'))).map((a) => [a.currency, a.type])).toEqual([
      ['CLP', 'checking_account'],
      ['USD', 'checking_account'],
      ['CLP', 'credit_card'],
    ]);
    await expect(bank.exchange('nope')).rejects.toMatchObject({ inputRejected: true });
    const intent = await bank.createLinkIntent();
    await expect(bank.exchange(intent.widgetToken)).resolves.toMatchObject({ linkToken: expect.stringMatching(/^sandbox_lt_/) });
  });

  it('fails at the configured page only when the read reaches it', async () => {
    const bank = new SandboxBank(clock, { dailyMovements: 20, failAtPage: 3 });
    const [account] = await bank.accounts(link('c'));
    await expect(bank.movements(link('c'), account.providerAccountId, { since: '2026-03-17', until: '2026-06-15' })).rejects.toBeInstanceOf(BankProviderFailure);
    // Two pages (at most 600 movements) never reach page 3.
    expect(await bank.movements(link('c'), account.providerAccountId, { since: '2026-05-18', until: '2026-06-15' })).toHaveLength(21 * 20);
  });
});
