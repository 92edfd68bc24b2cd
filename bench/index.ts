// `npm run bench -- <name> [options]`: benchmarks against the real service on this machine.
import { attachments } from './attachments';
import { consolidation } from './consolidation';
import { banking } from './banking';
import { closings } from './closings';
import { bankFeeds } from './bank-feeds';
import { agents } from './agents';
import { dashboards, dashboardsSeed } from './dashboards';
import { exportsBench } from './exports';
import { historyReads } from './history-reads';
import { imports } from './imports';
import { httpBaseline } from './http-baseline';
import { invoices } from './invoices';
import { ledgerImport } from './ledger-import';
import { ledgerWrite } from './ledger-write';
import { pipelineAb } from './pipeline-ab';
import { recommendationHitRate } from './recommendation-hit-rate';
import { reports } from './reports';
import { seed } from './seed';
import { tax } from './tax';

const BENCHMARKS: Record<string, { run: (args: string[]) => Promise<void>; about: string }> = {
  'http-baseline': { run: httpBaseline, about: 'request pipeline alone: GET /api/health [--seconds N]' },
  seed: { run: seed, about: 'one Entity with two years of entries in .data/bench [--lines N, default 1000000]' },
  reports: { run: reports, about: 'report latencies on the seeded Entity against plain SQL over raw lines [--partner-ledger] [--runs N] [--before ROOT: alternated with the build of another checkout]' },
  attachments: { run: attachments, about: 'presign and confirm of attachments (PUT to the embedded S3 between) from 8 connections [--seconds N]' },
  banking: { run: banking, about: 'statement import, bank-account list and match candidates [--rows 50000] [--accounts 20] [--movements 1000000]' },
  'bank-feeds': { run: bankFeeds, about: 'first sync of 90 days from the sandbox, then a sync with nothing new [--movements 18000]' },
  agents: { run: agents, about: 'agent gateway turns with two tool calls against a model answering at once [--turns N] [--warmup N]' },
  invoices: { run: invoices, about: 'DTE import of an EnvioDTE, /invoices/pages at N invoices, booking from 8 connections with CPU and statements per booking [--invoices N] [--documents N] [--seconds N] [--booking-only] [--waits] [--without-totals-triggers]' },
  imports: { run: imports, about: 'issue 33 (D2b): four hostile 5 MB imports of one User at once while another tenant reads (health and read p99, RSS), and a valid EnvioDTE import [--seconds 20] [--documents 2000]' },
  'dashboards-seed': { run: () => dashboardsSeed(), about: 'adds bank movements and booked invoices to the seeded Entity (after seed)' },
  dashboards: { run: dashboards, about: 'home, revenue realization and recommendations against plain SQL over raw lines, beside their targets [--runs N] [--raw-runs N]' },
  'recommendation-hit-rate': { run: recommendationHitRate, about: 'first-suggestion hit rate on a generated history with known answers, against the naive rule [--history N] [--new N]' },
  'ledger-import': { run: ledgerImport, about: 'npm run cli -- ledger:import of a generated JSON Lines file into a fresh Entity, against 20,000 lines/s [--lines 1000000] [--batch 1000] [--parallel 2]' },
  closings: { run: closings, about: 'D90 on the seeded Entity: close and reopen 2024, from request to answer, beside its 200 ms target [--runs N] [--leave-closed]' },
  'history-reads': { run: () => historyReads(), about: 'issue 25 item 3 on the seeded Entity: search for a term found nowhere, open-item totals, partner ledger openings, each beside its target' },
  'pipeline-ab': { run: pipelineAb, about: 'service CPU per request of this build against another checkout (--before ROOT), both running, in alternating bursts [--rounds 8] [--seconds 3]' },
  exports: { run: exportsBench, about: 'issue 38: the year\'s journal and Libro Mayor as CSV, XLSX (and JSON) on the seeded Entity: rows/s, first byte, service RSS [--year YYYY] [--runs N]' },
  consolidation: { run: consolidation, about: 'D91 consolidated reports from 8 connections: a tree of 5 (one USD) with N lines, a tree of 50 small Entities [--lines 1000000] [--small 50] [--seconds 10]' },
  tax: { run: tax, about: 'issue 37: the register and the F29 of a month of N invoices, an RCV file of N rows imported and reconciled [--invoices 20000] [--months 6] [--runs 25]' },
  'ledger-write': { run: ledgerWrite, about: 'POST ledger entries through the API against the plain-SQL ceiling [--seconds N] [--statements] [--floor] [--without-history-upkeep] [--plan-cache-mode auto|force_generic_plan|force_custom_plan] [--explain [--explain-runs N]]' },
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const benchmark = name ? BENCHMARKS[name] : undefined;
  if (!benchmark) {
    process.stdout.write('Usage: npm run bench -- <name> [options]\n\n');
    for (const [key, { about }] of Object.entries(BENCHMARKS)) process.stdout.write(`  ${key.padEnd(16)} ${about}\n`);
    process.exit(name ? 1 : 0);
  }
  await benchmark.run(args);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
