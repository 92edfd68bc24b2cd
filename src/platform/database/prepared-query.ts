import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Runs a hot statement as a named prepared statement, on the connection of the manager's
 * transaction when there is one, else on a pooled connection: PostgreSQL parses it once per
 * connection and can keep its plan, instead of parsing and planning it on every call. Values are
 * converted exactly as TypeORM's `query` converts them (both hand them to `pg`).
 */
export async function preparedQuery<T>(manager: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const statement = { name: statementName(text), text, values };
  const runner = manager.queryRunner;
  if (runner && !runner.isReleased) {
    const client = (await runner.connect()) as PoolClient;
    return (await client.query(statement)).rows as T[];
  }
  const pool = (manager.connection.driver as unknown as { master: Pool }).master;
  return (await pool.query(statement)).rows as T[];
}
