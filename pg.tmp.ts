import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './src/platform/embedded/embedded-postgres';
(async () => {
  const pg = await startEmbeddedPostgres({ directory: join('.data', 'bench', 'postgres'), password: 'bench', persistent: true });
  const c = new Client({ connectionString: pg.urlFor('bench') });
  await c.connect();
  try {
    const { rows: [{ entity_id }] } = await c.query(`SELECT entity_id FROM invoices GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
    const q = `SELECT i.direction, i.document_kind, i.currency, i.exchange_rate::text AS exchange_rate, count(*)::int AS n,
              sum(i.exempt_amount)::text AS exempt_amount, sum(i.net_amount)::text, sum(i.tax_amount)::text, sum(i.total_amount)::text
         FROM invoices i WHERE i.entity_id = $1 AND i.issue_date >= '2026-06-01' AND i.issue_date <= '2026-06-30' AND i.document_kind <> 'other'
        GROUP BY i.direction, i.document_kind, i.currency, i.exchange_rate, CASE WHEN i.exchange_rate IS NOT NULL THEN i.id END`;
    for (const label of process.argv.slice(2)) {
      if (label === 'covering') await c.query(`CREATE INDEX IF NOT EXISTS tmp_cov ON invoices (entity_id, issue_date) INCLUDE (direction, document_kind, currency, exchange_rate, exempt_amount, net_amount, tax_amount, total_amount)`), await c.query('VACUUM ANALYZE invoices');
      if (label === 'drop') await c.query('DROP INDEX IF EXISTS tmp_cov');
      for (let k = 0; k < 3; k++) {
        const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${q}`, [entity_id]);
        console.log(label, r.rows.map((x) => x['QUERY PLAN']).filter((l: string) => /Scan|Execution|Aggregate/.test(l)).map((l: string) => l.trim().slice(0, 140)).join('\n   '));
      }
    }
  } finally {
    await c.end();
    await pg.stop();
  }
})();
