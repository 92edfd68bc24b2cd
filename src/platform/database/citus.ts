/**
 * D94: the schema on a Citus cluster. `distributeOnCitus` (the CLI's `db:distribute`, and start-up
 * when DATABASE_DISTRIBUTION=citus) makes, on a Citus coordinator:
 * - every Entity table (a table whose primary key begins with `entity_id`, D40) a distributed
 *   table by `entity_id`, all co-located, so each tenant's statement goes to one shard group;
 * - the tables kept on the coordinator (COORDINATOR_TABLES: sessions, sign-in failures, key
 *   usage, the migrations table) local tables (Citus-managed when they name a reference table);
 * - every other table (Organizations, Users, Memberships, Entities, API keys, FX rates, the global
 *   audit trail, ...) a reference table, copied to every node.
 * Tables are read from the catalog, so a table a later migration adds is classified the same way.
 * Nothing here creates Citus or its nodes: the operator does (README, docs/CITUS.md).
 */

/** Anything that runs SQL: a DataSource, a QueryRunner, an EntityManager. */
export interface SqlRunner {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, parameters?: unknown[]): Promise<any>;
}

/** Tables that stay on the coordinator: per-instance or per-request bookkeeping, never joined to an Entity's rows. */
export const COORDINATOR_TABLES = ['schema_migrations', 'user_sessions', 'sign_in_failures', 'api_key_usage'] as const;

/** The refusal of `db:distribute` where it cannot run (no Citus, a worker, no workers). */
export class CitusDistributionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CitusDistributionError';
  }
}

export interface DistributionReport {
  referenceTables: string[];
  coordinatorTables: string[];
  distributedTables: string[];
  /** What this run changed (empty when the schema was already distributed). */
  changes: string[];
}

interface TableRow {
  name: string;
  entity_table: boolean;
  citus_type: 'distributed' | 'reference' | 'local' | null;
  distribution_column: string | null;
}

interface ForeignKeyRow {
  table_name: string;
  referenced: string;
  name: string;
  definition: string;
}

/** Any constant: one distribution at a time (two instances starting at once). */
const DISTRIBUTION_LOCK_KEY = 7_301_945_094;

/** The citus extension's version in this database, or null on plain PostgreSQL. */
export async function citusVersion(runner: SqlRunner): Promise<string | null> {
  const rows = (await runner.query(`SELECT extversion FROM pg_extension WHERE extname = 'citus'`)) as Array<{ extversion: string }>;
  return rows[0]?.extversion ?? null;
}

/** True when this database is a Citus coordinator whose schema was distributed (`entities` is a reference table). */
export async function isDistributedSchema(runner: SqlRunner): Promise<boolean> {
  if ((await citusVersion(runner)) === null) return false;
  const rows = (await runner.query(
    `SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('entities') AND repmodel = 't'`,
  )) as unknown[];
  return rows.length > 0;
}

async function tables(runner: SqlRunner, citus: boolean): Promise<TableRow[]> {
  const citusColumns = citus
    ? `CASE WHEN p.partmethod = 'h' THEN 'distributed' WHEN p.repmodel = 't' THEN 'reference' WHEN p.logicalrelid IS NOT NULL THEN 'local' END AS citus_type,
       CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END AS distribution_column`
    : `NULL AS citus_type, NULL AS distribution_column`;
  return (await runner.query(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_constraint k JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
                     WHERE k.conrelid = c.oid AND k.contype = 'p' AND a.attname = 'entity_id') AS entity_table,
            ${citusColumns}
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       ${citus ? 'LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid' : ''}
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  )) as TableRow[];
}

export interface TablePlan {
  /** Tables whose primary key begins with entity_id (D40): distributed by it. */
  entityTables: string[];
  /** Tables every Entity shares: reference tables. */
  referenceTables: string[];
  /** COORDINATOR_TABLES present in the schema: left on the coordinator. */
  coordinatorTables: string[];
}

/** How the schema's tables distribute, read from the catalog (works on plain PostgreSQL too). */
export async function planDistribution(runner: SqlRunner): Promise<TablePlan> {
  return plan(await tables(runner, (await citusVersion(runner)) !== null));
}

function plan(all: TableRow[]): TablePlan {
  const coordinatorNames = new Set<string>(COORDINATOR_TABLES);
  return {
    entityTables: all.filter((t) => t.entity_table && !coordinatorNames.has(t.name)).map((t) => t.name),
    referenceTables: all.filter((t) => !t.entity_table && !coordinatorNames.has(t.name)).map((t) => t.name),
    coordinatorTables: all.filter((t) => coordinatorNames.has(t.name)).map((t) => t.name),
  };
}

async function foreignKeys(runner: SqlRunner): Promise<ForeignKeyRow[]> {
  return (await runner.query(
    `SELECT k.conrelid::regclass::text AS table_name, k.confrelid::regclass::text AS referenced, k.conname AS name,
            pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace AND n.nspname = current_schema()
      WHERE k.contype = 'f'
      ORDER BY 1, 3`,
  )) as ForeignKeyRow[];
}

/** Referenced tables first (a table's own foreign keys to itself do not count). */
function inDependencyOrder(names: string[], keys: ForeignKeyRow[]): string[] {
  const pending = new Set(names);
  const ordered: string[] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter((name) => !keys.some((k) => k.table_name === name && k.referenced !== name && pending.has(k.referenced)));
    if (ready.length === 0) return [...ordered, ...pending]; // a cycle: Citus says which key it refuses
    for (const name of ready) {
      ordered.push(name);
      pending.delete(name);
    }
  }
  return ordered;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Throws CitusDistributionError unless `runner`'s database is a Citus coordinator's (no extension, or a worker). */
export async function refuseUnlessCoordinator(runner: SqlRunner): Promise<void> {
  const version = await citusVersion(runner);
  if (version === null) {
    const [{ db }] = (await runner.query('SELECT current_database() AS db')) as Array<{ db: string }>;
    throw new CitusDistributionError(
      `db:distribute needs a Citus coordinator: database "${db}" has no citus extension. ` +
        `On a Citus cluster run CREATE EXTENSION citus in it (and citus_add_node for each worker); on plain PostgreSQL there is nothing to distribute.`,
    );
  }
  const [{ coordinator }] = (await runner.query('SELECT citus_is_coordinator() AS coordinator')) as Array<{ coordinator: boolean }>;
  if (!coordinator) {
    throw new CitusDistributionError('db:distribute runs on the Citus coordinator, not on a worker: point DATABASE_URL at the coordinator.');
  }
}

/**
 * Distributes the schema on a Citus coordinator, idempotently (see the file's comment). Refuses
 * with CitusDistributionError on plain PostgreSQL, on a worker, and where a table is already
 * distributed another way. One transaction: the schema is distributed whole or not at all.
 */
export async function distributeOnCitus(runner: SqlRunner & { release?: () => Promise<void> }): Promise<DistributionReport> {
  await refuseUnlessCoordinator(runner);
  await runner.query('SELECT pg_advisory_lock($1)', [DISTRIBUTION_LOCK_KEY]);
  try {
    await runner.query('BEGIN');
    try {
      // DDL on reference tables and many shards in one transaction: Citus asks for sequential mode.
      await runner.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
      const report = await distribute(runner);
      await runner.query('COMMIT');
      return report;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [DISTRIBUTION_LOCK_KEY]).catch(() => undefined);
  }
}

async function distribute(runner: SqlRunner): Promise<DistributionReport> {
  const all = await tables(runner, true);
  const keys = await foreignKeys(runner);
  const names = plan(all);
  const byName = (list: string[]) => all.filter((t) => list.includes(t.name));
  const entityTables = byName(names.entityTables);
  const referenceTables = byName(names.referenceTables);
  const coordinatorTables = byName(names.coordinatorTables);
  const changes: string[] = [];

  for (const table of entityTables) {
    if (table.citus_type === 'distributed' && table.distribution_column !== 'entity_id') {
      throw new CitusDistributionError(`${table.name} is distributed by ${table.distribution_column}, not entity_id: undistribute it first (undistribute_table).`);
    }
    if (table.citus_type !== null && table.citus_type !== 'distributed') {
      throw new CitusDistributionError(`${table.name} is an Entity table but a Citus ${table.citus_type} table: undistribute it first (undistribute_table).`);
    }
  }
  for (const table of referenceTables) {
    if (table.citus_type === 'distributed') {
      throw new CitusDistributionError(`${table.name} is shared by every Entity but distributed: undistribute it first (undistribute_table).`);
    }
  }

  // 1. Shared tables, referenced ones first: a reference table may only name reference tables.
  const referenceNames = new Set(referenceTables.map((t) => t.name));
  for (const name of inDependencyOrder([...referenceNames], keys)) {
    const table = referenceTables.find((t) => t.name === name)!;
    if (table.citus_type === 'reference') continue;
    if (table.citus_type === 'local') await runner.query(`SELECT undistribute_table($1)`, [name]);
    await runner.query(`SELECT create_reference_table($1)`, [name]);
    changes.push(`${name}: reference table`);
  }

  // 2. Coordinator tables that name a shared table become Citus-managed local tables (a foreign
  //    key from a local table to a reference table needs it); the others stay plain tables.
  for (const table of coordinatorTables) {
    if (table.citus_type !== null) continue;
    if (keys.some((k) => k.table_name === table.name && referenceNames.has(k.referenced))) {
      await runner.query(`SELECT citus_add_local_table_to_metadata($1)`, [table.name]);
      changes.push(`${table.name}: local table on the coordinator (Citus-managed)`);
    }
  }

  // 3. Entity tables by entity_id, co-located. A foreign key between two Entity tables can only be
  //    added once both are distributed: such keys are dropped and added back after.
  const pending = entityTables.filter((t) => t.citus_type === null).map((t) => t.name);
  if (pending.length > 0) {
    const pendingSet = new Set(pending);
    const entityNames = new Set(entityTables.map((t) => t.name));
    const severed = keys.filter(
      (k) => entityNames.has(k.table_name) && entityNames.has(k.referenced) && k.table_name !== k.referenced && (pendingSet.has(k.table_name) || pendingSet.has(k.referenced)),
    );
    for (const key of severed) await runner.query(`ALTER TABLE ${quoted(key.table_name)} DROP CONSTRAINT ${quoted(key.name)}`);
    let anchor = entityTables.find((t) => t.citus_type === 'distributed')?.name;
    for (const name of inDependencyOrder(pending, keys)) {
      if (anchor) await runner.query(`SELECT create_distributed_table($1, 'entity_id', colocate_with => $2)`, [name, anchor]);
      else await runner.query(`SELECT create_distributed_table($1, 'entity_id', colocate_with => 'none')`, [name]);
      anchor ??= name;
      changes.push(`${name}: distributed by entity_id`);
    }
    for (const key of severed) await runner.query(`ALTER TABLE ${quoted(key.table_name)} ADD CONSTRAINT ${quoted(key.name)} ${key.definition}`);
  }

  return {
    referenceTables: referenceTables.map((t) => t.name),
    coordinatorTables: coordinatorTables.map((t) => t.name),
    distributedTables: entityTables.map((t) => t.name),
    changes,
  };
}

/**
 * For migrations (D94, docs/CITUS.md): a migration that creates an Entity table calls this right
 * after its CREATE TABLE, before the foreign keys to other Entity tables; on a distributed schema
 * the table is distributed by entity_id, co-located with the others. Elsewhere it does nothing.
 */
export async function distributeNewEntityTable(runner: SqlRunner, table: string): Promise<void> {
  if (!(await isDistributedSchema(runner))) return;
  const [anchor] = (await runner.query(
    `SELECT logicalrelid::text AS name FROM pg_dist_partition
      WHERE partmethod = 'h' AND logicalrelid::text <> $1 ORDER BY colocationid, logicalrelid::text LIMIT 1`,
    [table],
  )) as Array<{ name: string }>;
  await runner.query(`SELECT create_distributed_table($1, 'entity_id', colocate_with => $2)`, [table, anchor?.name ?? 'none']);
}

/**
 * For migrations: a migration that creates a table shared by every Entity (no entity_id key)
 * calls this after its CREATE TABLE; on a distributed schema it becomes a reference table.
 */
export async function makeNewSharedTableReference(runner: SqlRunner, table: string): Promise<void> {
  if (!(await isDistributedSchema(runner))) return;
  await runner.query(`SELECT create_reference_table($1)`, [table]);
}

/**
 * An always-true condition naming an Entity table by `entity_id = <entityParam>` (D94). `entities`
 * is a reference table, copied on every node: a statement on it alone runs on whichever copy Citus
 * picks (the coordinator's for the first statement of a transaction), and a row lock taken there
 * does not meet the lock a posting takes on the copy of the Entity's worker. With this condition
 * the statement is routed to the Entity's shard group, where every lock of the Entity row is
 * taken. On plain PostgreSQL: one probe of an index.
 */
export function onTheEntityShard(entityParam: string): string {
  return `NOT EXISTS (SELECT 1 FROM entity_audit_trail shard_anchor WHERE shard_anchor.entity_id = ${entityParam} AND shard_anchor.id IS NULL)`;
}

const distributedSchemas = new WeakMap<object, Promise<boolean>>();

/**
 * `isDistributedSchema` for the database a manager's DataSource serves, asked once per DataSource
 * (a schema is distributed before the service serves it: `db:distribute` while it runs needs a
 * restart, README): for the few reads written one way for one server and another for Citus
 * (`LedgerFigures.groupBalances`).
 */
export function servesDistributedSchema(manager: SqlRunner & { connection: object }): Promise<boolean> {
  const key = manager.connection;
  let known = distributedSchemas.get(key);
  if (!known) {
    known = isDistributedSchema(manager);
    known.catch(() => distributedSchemas.delete(key));
    distributedSchemas.set(key, known);
  }
  return known;
}
