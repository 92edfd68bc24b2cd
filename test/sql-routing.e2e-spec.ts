import { FixedClock } from '../src/platform/clock/clock';
import { buildLedgerFixture, LedgerFixture } from './harness/ledger-fixture';
import { routeTable } from './harness/routes';
import { captureServiceSql, entityTablesOf, routingViolations, scopes } from './harness/sql-routing';
import { TestApp } from './harness/test-app';
import { createWorldApp, World } from './harness/world';

/**
 * D94 in CI (no Citus there): the SQL the service sends while an Entity is filled with one of
 * everything (buildLedgerFixture) and every GET route of the Entity is asked must follow the
 * Citus rules (harness/sql-routing.ts, docs/ARCHITECTURE.md): each scope that reads an Entity table
 * names entity_id = $n itself, no simple CASE in a write, no function in a write's RETURNING.
 * The exceptions carry a `citus:multi-shard` comment and are listed in docs/CITUS.md.
 */
describe('statements route to one shard (D94)', () => {
  jest.setTimeout(120_000);
  const capture = captureServiceSql();
  let t: TestApp;
  let world: World;
  let fixture: LedgerFixture;

  beforeAll(async () => {
    ({ t, world } = await createWorldApp({ clock: new FixedClock(new Date('2026-06-15T15:00:00Z')) }));
    fixture = await buildLedgerFixture(world.staff, world.entityId, { withBook: true });
  });
  afterAll(async () => {
    capture.stop();
    await t?.close();
  });

  it('reads the scopes of a statement: each subquery and CTE apart, function calls kept in their scope', () => {
    expect(
      scopes(`WITH a AS (SELECT 1 FROM x WHERE entity_id = $1) SELECT coalesce(sum(y.n), 0) FROM y WHERE EXISTS (SELECT 1 FROM z WHERE z.id = y.id)`).map((s) =>
        s.replace(/\s+/g, ' ').trim(),
      ),
    ).toEqual(['SELECT 1 FROM x WHERE entity_id = $1', 'SELECT 1 FROM z WHERE z.id = y.id', 'WITH a AS SELECT coalesce(sum(y.n), 0) FROM y WHERE EXISTS']);
  });

  it('flags a correlated subquery, a missing entity_id, a simple CASE in a write and a function in RETURNING; passes a join pinned once', () => {
    const tables = new Set(['ledger_lines', 'ledger_entries', 'invoices']);
    const rules = (sql: string) => routingViolations(sql, tables).map((v) => v.rule);
    expect(rules(`SELECT e.id FROM ledger_entries e WHERE e.entity_id = $1 AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = e.entity_id AND l.entry_id = e.id)`)).toEqual(['entity_id']);
    expect(rules(`SELECT e.id FROM ledger_entries e WHERE e.entity_id = $1 AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = $1 AND l.entry_id = e.id)`)).toEqual([]);
    expect(rules(`SELECT l.id FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id WHERE l.entity_id = $1`)).toEqual([]);
    expect(rules(`SELECT 1 FROM ledger_lines WHERE id = $1 FOR UPDATE`)).toEqual(['entity_id']);
    expect(rules(`UPDATE invoices SET x = CASE side WHEN 'debit' THEN 1 ELSE 2 END WHERE entity_id = $1`)).toEqual(['simple_case_in_write']);
    expect(rules(`UPDATE invoices SET x = CASE WHEN side = 'debit' THEN 1 ELSE 2 END WHERE entity_id = $1 RETURNING id, x`)).toEqual([]);
    expect(rules(`UPDATE invoices SET x = 1 WHERE entity_id = $1 RETURNING to_char(due_date, 'YYYY-MM-DD')`)).toEqual(['returning']);
    expect(rules(`/* citus:multi-shard a sweep */ SELECT DISTINCT entity_id FROM invoices`)).toEqual([]);
    expect(rules(`INSERT INTO invoices (entity_id, id) VALUES ($1, $2)`)).toEqual([]);
  });

  it('every statement of the fixture and of every GET route of an Entity follows the rules', async () => {
    const ids: Record<string, string | null> = {
      entityId: world.entityId,
      entryId: fixture.saleEntryId,
      lineId: fixture.cashLineId,
      accountId: fixture.cash,
      groupId: fixture.groupId,
      partnerId: fixture.partnerId,
      dimensionId: fixture.dimensionId,
      valueId: fixture.valueId,
      dimensionValueId: fixture.valueId,
      bookId: fixture.bookId,
      bankAccountId: fixture.bankAccountId,
      movementId: fixture.movementId,
      invoiceId: fixture.documentInvoiceId,
      dteId: fixture.dteId,
      bankConnectionId: fixture.bankConnectionId,
      allocationId: fixture.allocationId,
      organizationId: world.organizationId,
    };
    const asked: string[] = [];
    for (const route of routeTable(t)) {
      if (route.method.toLowerCase() !== 'get' || !route.path.startsWith('/api/entities/:entityId')) continue;
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => ids[name] ?? `:${name}`);
      if (path.includes(':')) continue;
      await world.staff.get(path);
      asked.push(route.path);
    }
    expect(asked.length).toBeGreaterThan(30);
    const entityTables = await entityTablesOf((text) => t.sql(text));
    const violations = capture.statements().flatMap((sql) => routingViolations(sql, entityTables));
    expect(violations.map((v) => `${v.rule}: ${v.detail}\n    in: ${v.sql.replace(/\s+/g, ' ').slice(0, 300)}`)).toEqual([]);
  });
});
