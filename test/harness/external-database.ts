import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { appDataSourceOptions as dataSourceOptions } from '../../src/schema';
import { distributeOnCitus } from '../../src/platform/database/citus';
import { runMigrationsExclusively } from '../../src/platform/database/migrate';

/**
 * `TEST_DATABASE_URL` (D94, docs/CITUS.md): the e2e tests on a PostgreSQL server of your own instead
 * of the embedded one, e.g. a Citus coordinator. The URL names a superuser's maintenance database
 * (`postgres://postgres@host:5432/postgres`). On Citus, that database lists the workers
 * (citus_add_node, as the operator set the cluster up) and the same user reaches them.
 *
 * A test file's database is a clone of a migrated template. On Citus a database is not shared by the
 * nodes, so the template is made on every node (the citus extension in each, the workers added,
 * migrated and distributed on the coordinator) and each file's database is cloned from it on every
 * node under the same name: the coordinator's metadata and the workers' shards come as one.
 */
export interface ExternalCluster {
  /** Server URL of the coordinator (or of the one server), maintenance database. */
  coordinatorUrl: string;
  /** Server URLs of the workers, maintenance database; empty without Citus. */
  workerUrls: string[];
  template: string;
  /** Prefix of every database this run creates (dropped by dropRunDatabases). */
  prefix: string;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function prepareExternalDatabase(url: string): Promise<ExternalCluster> {
  const prefix = `t${randomBytes(3).toString('hex')}`;
  const template = `${prefix}_template`;
  const workers = await onServer(url, async (client) => {
    const citus = (await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)).rows.length > 0;
    if (!citus) return [] as Array<{ nodename: string; nodeport: number }>;
    return (await client.query(`SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeid`))
      .rows as Array<{ nodename: string; nodeport: number }>;
  });
  const workerUrls = workers.map((w) => {
    const parsed = new URL(url);
    parsed.hostname = w.nodename;
    parsed.port = String(w.nodeport);
    return parsed.toString();
  });
  const citus = workerUrls.length > 0;
  for (const server of [url, ...workerUrls]) {
    await onServer(server, (c) => c.query(`CREATE DATABASE ${template}`));
    if (citus) await onServer(withDatabase(server, template), (c) => c.query('CREATE EXTENSION citus'));
  }
  const coordinator = new URL(url);
  if (citus) {
    await onServer(withDatabase(url, template), async (c) => {
      await c.query('SELECT citus_set_coordinator_host($1, $2)', [coordinator.hostname, Number(coordinator.port || 5432)]);
      for (const w of workers) await c.query('SELECT citus_add_node($1, $2)', [w.nodename, w.nodeport]);
    });
  }
  const dataSource = await new DataSource(dataSourceOptions(withDatabase(url, template), 2)).initialize();
  try {
    await runMigrationsExclusively(dataSource);
    if (citus) {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await distributeOnCitus(runner).finally(() => runner.release());
    }
  } finally {
    await dataSource.destroy();
  }
  // A template has no session: Citus's maintenance daemon keeps one per database, and the
  // coordinator keeps connections to the workers' databases of the same name.
  for (const server of [url, ...workerUrls]) {
    await onServer(server, async (c) => {
      await c.query(`ALTER DATABASE ${template} ALLOW_CONNECTIONS false`);
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [template]);
    });
  }
  return { coordinatorUrl: url, workerUrls, template, prefix };
}

/** A fresh database cloned from the template on every node; its URL on the coordinator. */
export async function cloneExternalDatabase(cluster: ExternalCluster): Promise<string> {
  const name = `${cluster.prefix}_${randomBytes(6).toString('hex')}`;
  for (const server of [...cluster.workerUrls, cluster.coordinatorUrl]) {
    await onServer(server, async (client) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE ${name} TEMPLATE ${cluster.template}`);
          return;
        } catch (error) {
          // 55006: another file is cloning the template at the same moment (or a session of the
          // template's is still ending).
          if ((error as { code?: string }).code !== '55006' || attempt > 200) throw error;
          await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [cluster.template]);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
  }
  return withDatabase(cluster.coordinatorUrl, name);
}

/** Drops the template and every database of this run, on every node. */
export async function dropRunDatabases(cluster: ExternalCluster): Promise<void> {
  for (const server of [cluster.coordinatorUrl, ...cluster.workerUrls]) {
    await onServer(server, async (client) => {
      const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${cluster.prefix}\\_%`]);
      for (const { datname } of rows as Array<{ datname: string }>) {
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
      }
    });
  }
}
