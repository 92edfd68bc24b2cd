import { Client } from 'pg';

/**
 * Samples what the service's PostgreSQL backends are doing (`pg_stat_activity`) every few
 * milliseconds while a load runs: on CPU (active, no wait event), waiting for a lock (which
 * kind), for the WAL flush of a commit, or for the service (idle in transaction: the service is
 * computing, or queued for a core, while the transaction holds its locks). `stop()` prints the
 * share of each state over all samples of busy backends and the mean number of them.
 */
export async function sampleWaits(databaseUrl: string, intervalMs = 5): Promise<{ stop(): Promise<string> }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let busy = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ state: string; wait: string | null; n: number }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait, count(*)::int AS n
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'
          GROUP BY 1, 2`,
      );
      samples++;
      for (const r of rows) {
        const key = r.state === 'active' ? (r.wait ? `active, waiting ${r.wait}` : 'active, on CPU (or queued for one)') : `${r.state}${r.wait ? ` (${r.wait})` : ''}`;
        counts.set(key, (counts.get(key) ?? 0) + r.n);
        busy += r.n;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      const lines = [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([key, n]) => `    ${((100 * n) / Math.max(busy, 1)).toFixed(1).padStart(5)} %  ${key}`);
      return `Backends in a transaction, sampled every ${intervalMs} ms (${samples} samples, ${(busy / Math.max(samples, 1)).toFixed(2)} on average):\n${lines.join('\n')}`;
    },
  };
}
