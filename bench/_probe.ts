import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/platform/embedded/embedded-postgres';
import { BENCH_DIR, readSeed } from './lib/bench-env';

const cpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

async function main() {
  const seed = readSeed();
  const pg = await startEmbeddedPostgres({ directory: join(BENCH_DIR, 'postgres'), password: 'bench', persistent: true });
  const c = new Client({ connectionString: pg.urlFor('bench') });
  await c.connect();
  try {
    const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p as number;
    for (const sqlText of process.argv.slice(2)) {
      const c0 = cpu(pid);
      const t0 = performance.now();
      const r = await c.query(sqlText.replaceAll(':entity', `'${seed.entityId}'`));
      const ms = performance.now() - t0;
      const rows = Array.isArray(r) ? r[r.length - 1].rows : r.rows;
      if (rows?.length) console.log(rows.map((x: Record<string, unknown>) => Object.values(x).join(' | ')).slice(0, 60).join('\n'));
      console.log(`${ms.toFixed(0)} ms wall, backend CPU ${(cpu(pid) - c0).toFixed(2)} s :: ${sqlText.slice(0, 90)}`);
    }
  } finally {
    await c.end();
    await pg.stop();
  }
}
void main();
