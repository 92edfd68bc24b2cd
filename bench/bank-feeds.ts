import { randomUUID } from 'node:crypto';
import { benchKey, http, startBenchEnvironment } from './lib/bench-env';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** Business days (Monday to Friday) in the 91 calendar days from today minus 90 to today (UTC dates). */
function businessDaysOfFirstWindow(): number {
  let n = 0;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let d = 0; d <= 90; d++) {
    const weekday = new Date(today - d * 86_400_000).getUTCDay();
    if (weekday !== 0 && weekday !== 6) n++;
  }
  return n;
}

/**
 * `npm run bench -- bank-feeds [--movements 18000]`: a sandbox connection whose CLP account feeds
 * a new Bank Account; the first sync (90 days back, D69) lands about `--movements` movements (the
 * sandbox's daily volume, BANK_SANDBOX_DAILY_MOVEMENTS, is set so that its business days of the
 * window carry that many), then a second sync the same day finds nothing new. Targets: first
 * under 10 s, second under 1 s.
 */
export async function bankFeeds(args: string[]): Promise<void> {
  const target = option(args, '--movements', 18_000);
  const perDay = Math.ceil(target / businessDaysOfFirstWindow());
  const env = await startBenchEnvironment({ BANK_SANDBOX_DAILY_MOVEMENTS: String(perDay), BANK_SANDBOX_ENABLED: 'true' });
  try {
    const base = env.service.baseUrl;
    const headers = await benchKey(base);
    const entityId = randomUUID();
    await http(base, 'POST', '/api/entities', { id: entityId, name: `Bench Feeds ${entityId.slice(0, 8)}`, country: 'CL', taxId: '76.086.428-5', currency: 'CLP' }, headers);
    const cash = randomUUID();
    await http(base, 'POST', `/api/entities/${entityId}/ledger/accounts`, { id: cash, name: 'Bancos', code: '1101', type: 'asset', tracking: 'balance' }, headers);
    const connections = `/api/entities/${entityId}/bank-connections`;
    const intent = (await http(base, 'POST', `${connections}/link-intents`, { provider: 'sandbox' }, headers)).body as { widgetToken: string };
    const connectionId = randomUUID();
    await http(base, 'POST', connections, { id: connectionId, provider: 'sandbox', exchangeToken: intent.widgetToken }, headers);
    const panel = (await http(base, 'GET', `${connections}/${connectionId}/accounts`, undefined, headers)).body as Array<{ providerAccountId: string }>;
    const bankAccountId = randomUUID();
    await http(base, 'POST', `${connections}/${connectionId}/bank-accounts`, { id: bankAccountId, name: 'Cuenta feed', ledgerAccountId: cash, providerAccountId: panel[0].providerAccountId }, headers);

    const sync = async () => {
      const t0 = performance.now();
      const { body } = await http(base, 'POST', `/api/entities/${entityId}/bank-accounts/${bankAccountId}/feed/sync`, undefined, headers);
      return { ms: performance.now() - t0, ...(body as { landedCount: number; skippedCount: number }) };
    };
    const first = await sync();
    process.stdout.write(`first sync (90 days, ${perDay} a business day): ${(first.ms / 1000).toFixed(2)} s, landed ${first.landedCount.toLocaleString('en')} (target < 10 s)\n`);
    const again = await sync();
    process.stdout.write(`second sync, nothing new: ${(again.ms / 1000).toFixed(3)} s, landed ${again.landedCount}, skipped ${again.skippedCount.toLocaleString('en')} (target < 1 s)\n`);
  } finally {
    await env.stop();
  }
}
