import { onTheEntityShard } from '../../../../platform/database/citus';

/**
 * The statement that locks the Entity row `$1` (`FOR UPDATE`, `FOR SHARE`, ...), routed on Citus to
 * the Entity's shard group, where the ledger's postings share-lock it (postingTermsSql in a
 * statement on the Entity's tables): on every node the same copy of the row is locked (D94).
 */
export function entityRowLockSql(mode: 'UPDATE' | 'NO KEY UPDATE' | 'SHARE', columns = '1'): string {
  return `SELECT ${columns} FROM entities e WHERE e.id = $1 AND ${onTheEntityShard('$1')} FOR ${mode} OF e`;
}
