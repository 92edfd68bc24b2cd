import { appendFileSync } from 'node:fs';
import { captureServiceSql } from './sql-routing';

/**
 * With TEST_SQL_COUNT_FILE set (a Citus run, docs/CITUS.md), every statement the service's own
 * connections send is counted and appended to that file (one JSON line per test file) at the end
 * of the file: the denominator of the share of tenant statements routed to one shard.
 */
const file = process.env.TEST_SQL_COUNT_FILE;
if (file) {
  const counts = new Map<string, number>();
  captureServiceSql((text) => counts.set(text, (counts.get(text) ?? 0) + 1));
  afterAll(() => {
    appendFileSync(file, `${JSON.stringify(Object.fromEntries(counts))}\n`);
  });
}
