import { Pool } from 'pg';
import { benchKey, http, readSeed, startBenchEnvironment } from './lib/bench-env';
import { collateClause, UNICODE_COLLATION_QUERY } from '../src/platform/database/unicode-collation';
import { time } from './reports';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** Rows the plan read (every node's actual rows, loops included) and its execution time. */
async function plan(pool: Pool, sql: string, values: unknown[]): Promise<{ ms: number; rows: number }> {
  const [{ 'QUERY PLAN': [root] }] = (await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values)).rows;
  let rows = 0;
  const walk = (node: Record<string, unknown>) => {
    if (!node['Plans']) rows += Number(node['Actual Rows']) * Number(node['Actual Loops']);
    for (const child of (node['Plans'] as Array<Record<string, unknown>>) ?? []) walk(child);
  };
  walk(root.Plan);
  return { ms: root['Execution Time'], rows };
}

/**
 * `npm run bench -- history-reads` (issue 25 item 3): on the seeded Entity (`seed --lines N`),
 * through HTTP, the reads that grew with history, each beside its target: a `search` for a term
 * found nowhere (journal and entries), the open-item lines of the receivable account, and the
 * partner ledger's openings (rows read, maintained totals against the lines before `from`).
 */
export async function historyReads(): Promise<void> {
  const seed = readSeed();
  const env = await startBenchEnvironment();
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1 });
  try {
    const headers = await benchKey(env.service.baseUrl);
    const get = (path: string) => http(env.service.baseUrl, 'GET', `/api/entities/${seed.entityId}${path}`, undefined, headers);
    const open = (await pool.query(`SELECT count(*)::int AS n FROM ledger_lines WHERE entity_id = $1 AND account_id = $2 AND is_open_item AND status IN ('active', 'reversed') AND allocated_amount < amount`, [seed.entityId, seed.receivableAccountId])).rows[0].n;
    const rows: Array<[string, string, string]> = [];
    const ms = (t: { median: number; p95: number }) => `${t.median.toFixed(1)} / ${t.p95.toFixed(1)}`;
    const verdict = (t: { median: number }, target: number) => `< ${target} ms: ${t.median < target ? 'met' : 'NOT met'}`;

    // The statements these reads sent before issue 25, timed as plain SQL beside the API.
    const collate = collateClause((await pool.query(UNICODE_COLLATION_QUERY)).rows);
    const oldJournal = (term: string) =>
      pool.query(
        `SELECT l.entry_id, l.entry_date, e.memo, l.status, l.book_id, l.id AS line_id, l.side, l.amount, l.account_id,
                a.code AS account_code, a.name AS account_name, l.partner_id, p.name AS partner_name, l.description
           FROM ledger_lines l
           JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
           JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
           LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL
            AND (e.memo ILIKE $2::text${collate} OR l.description ILIKE $2::text${collate} OR a.code ILIKE $2::text${collate} OR a.name ILIKE $2::text${collate} OR p.name ILIKE $2::text${collate})
          ORDER BY l.entry_date, l.entry_id, l.id LIMIT 101`,
        [seed.entityId, `%${term}%`],
      );
    const oldEntries = (term: string) =>
      pool.query(
        `SELECT e.id FROM ledger_entries e WHERE e.entity_id = $1 AND e.status IN ('active', 'reversed') AND (e.memo ILIKE $2::text${collate} OR e.notes ILIKE $2::text${collate})
          ORDER BY e.entry_date DESC, e.id DESC LIMIT 51`,
        [seed.entityId, `%${term}%`],
      );
    const oldOpenItems = () =>
      pool.query(
        `SELECT l.partner_id, p.name AS partner_name, count(*)::int AS line_count,
                sum(CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)::text AS open_total
           FROM ledger_lines l LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id
          WHERE l.entity_id = $1 AND l.account_id = $2 AND l.is_open_item AND l.status IN ('active', 'reversed') AND l.allocated_amount < l.amount AND l.book_id IS NULL
          GROUP BY l.partner_id, p.name ORDER BY p.name NULLS LAST, l.partner_id`,
        [seed.entityId, seed.receivableAccountId],
      );

    const nowhere = 'zqxjv-nowhere';
    const journal = await time(() => get(`/reports/journal?limit=100&search=${nowhere}`));
    rows.push([`journal, search for a term found nowhere: API`, ms(journal), verdict(journal, 100)]);
    rows.push([`the statement before issue 25 (plain SQL)`, ms(await time(() => oldJournal(nowhere), 3)), 'was 2,250 ms through the API']);
    const entries = await time(() => get(`/ledger/entries?limit=50&search=${nowhere}`));
    rows.push([`entries, search for a term found nowhere: API`, ms(entries), verdict(entries, 100)]);
    rows.push([`the statement before issue 25 (plain SQL)`, ms(await time(() => oldEntries(nowhere), 5)), 'was 113 ms through the API']);
    const common = await time(() => get('/reports/journal?limit=100&search=seed%20manual'));
    rows.push([`journal, search for a term in every memo: API`, ms(common), 'no regression']);
    rows.push([`the statement before issue 25 (plain SQL)`, ms(await time(() => oldJournal('seed manual'), 5)), '']);
    const commonEntries = await time(() => get('/ledger/entries?limit=50&search=seed%20manual'));
    rows.push([`entries, search for a term in every memo`, ms(commonEntries), 'no regression']);

    const openItems = await time(() => get(`/ledger/open-item-lines?accountId=${seed.receivableAccountId}&limit=50`));
    rows.push([`open-item lines of the receivable account (${open.toLocaleString('en')} open lines): API`, ms(openItems), verdict(openItems, 30)]);
    rows.push([`the summary statement before issue 25 (plain SQL, the page's own query not included)`, ms(await time(oldOpenItems, 5)), 'was 285 ms through the API']);
    const onePartner = await time(() => get(`/ledger/open-item-lines?accountId=${seed.receivableAccountId}&partnerId=${seed.partnerIds[0]}&limit=50`));
    rows.push([`the same, one partner`, ms(onePartner), verdict(onePartner, 30)]);

    const partners = seed.partnerIds.map((id) => `partnerIds=${id}`).join('&');
    const partnerLedger = await time(() => get(`/ledger/partner-ledger?accountId=${seed.receivableAccountId}&from=2025-07-01&to=2025-12-31&${partners}`), 10);
    rows.push(['partner ledger, 100 partners, 2025-07-01 to 2025-12-31', ms(partnerLedger), verdict(partnerLedger, 100)]);

    // The openings, before (every line before `from`) and now (whole months from the totals, the days of `from`'s month from the lines).
    const args = [seed.entityId, seed.receivableAccountId, '2025-07-15', seed.partnerIds];
    const before = await plan(
      pool,
      `SELECT l.partner_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ledger_lines l
        WHERE l.entity_id = $1 AND l.account_id = $2 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL AND l.entry_date < $3::date AND l.partner_id = ANY($4::uuid[])
        GROUP BY l.partner_id`,
      args,
    );
    const now = await plan(
      pool,
      `SELECT partner_id, sum(raw) FROM (
         SELECT t.partner_key AS partner_id, sum(t.debit - t.credit) AS raw FROM ledger_partner_monthly_totals t
          WHERE t.entity_id = $1 AND t.account_id = $2 AND t.book_key = ${NIL} AND t.month < date_trunc('month', $3::date)::date AND t.partner_key = ANY($4::uuid[]) GROUP BY t.partner_key
         UNION ALL
         SELECT l.partner_id, sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FROM ledger_lines l
          WHERE l.entity_id = $1 AND l.account_id = $2 AND l.status IN ('active', 'reversed') AND l.book_id IS NULL
            AND l.entry_date >= date_trunc('month', $3::date)::date AND l.entry_date < $3::date AND l.partner_id = ANY($4::uuid[]) GROUP BY l.partner_id) o
       GROUP BY partner_id`,
      args,
    );
    rows.push([`partner ledger openings before 2025-07-15, 100 partners: rows read from the lines (before)`, `${before.rows.toLocaleString('en')} rows, ${before.ms.toFixed(1)} ms`, 'O(lines before from)']);
    rows.push([`the same from the per-partner monthly totals (now)`, `${now.rows.toLocaleString('en')} rows, ${now.ms.toFixed(1)} ms`, `O(partners x months): ${now.rows < before.rows ? 'met' : 'NOT met'}`]);

    process.stdout.write(`\nSeeded Entity: ${seed.lines.toLocaleString('en')} lines. Times in ms, median / p95 over 25 runs (partner ledger 10), through HTTP with an API key.\n\n`);
    process.stdout.write('| Read | now | target |\n|---|---|---|\n');
    for (const [name, figure, target] of rows) process.stdout.write(`| ${name} | ${figure} | ${target} |\n`);
  } finally {
    await pool.end();
    await env.stop();
  }
}

/**
 * `ledger-write --without-history-upkeep`: the same run without what issue 25 item 3 added to the
 * posting path (the three trigram indexes and the three triggers keeping the open-item and
 * per-partner monthly totals), so that its cost shows as the difference of two runs.
 */
export async function withoutHistoryUpkeep(databaseUrl: string): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    // The totals triggers exist only on a build before LineAggregatesInStatements (a before/after
    // run with BENCH_SERVICE_ROOT); since, the totals are kept by the writing statements themselves.
    await pool.query(
      'DROP TRIGGER IF EXISTS ledger_lines_totals_insert ON ledger_lines; DROP TRIGGER IF EXISTS ledger_lines_totals_update ON ledger_lines; DROP TRIGGER IF EXISTS ledger_lines_totals_delete ON ledger_lines',
    );
    await pool.query('DROP INDEX ledger_entries_memo_trgm_idx, ledger_entries_notes_trgm_idx, ledger_lines_description_trgm_idx');
    process.stdout.write('Without the trigram indexes of issue 25 item 3 (and the totals triggers, where the build still has them).\n');
  } finally {
    await pool.end();
  }
}
