import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * D94: Citus distributes no table with triggers, and a statement-level trigger's transition table
 * is not found on a shard. `bank_accounts.unreconciled_count` is now kept by the statements that
 * write bank_movements (BankMovementRepository, BankFeedStore), in the same statement, as the
 * line aggregates are (D55). The counts the triggers kept are right as they stand.
 */
export class BankCountsWithoutTriggers1796604958635 implements MigrationInterface {
  name = 'BankCountsWithoutTriggers1796604958635';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER bank_movements_updated ON bank_movements`);
    await queryRunner.query(`DROP TRIGGER bank_movements_deleted ON bank_movements`);
    await queryRunner.query(`DROP TRIGGER bank_movements_inserted ON bank_movements`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_updated()`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_deleted()`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_inserted()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count + n.count
          FROM (SELECT entity_id, bank_account_id, count(*)::int AS count FROM new_rows WHERE ledger_entry_id IS NULL GROUP BY 1, 2) n
         WHERE a.entity_id = n.entity_id AND a.id = n.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count - o.count
          FROM (SELECT entity_id, bank_account_id, count(*)::int AS count FROM old_rows WHERE ledger_entry_id IS NULL GROUP BY 1, 2) o
         WHERE a.entity_id = o.entity_id AND a.id = o.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count + d.delta
          FROM (SELECT entity_id, bank_account_id, sum(delta)::int AS delta FROM (
                  SELECT entity_id, bank_account_id, CASE WHEN ledger_entry_id IS NULL THEN 1 ELSE 0 END AS delta FROM new_rows
                  UNION ALL
                  SELECT entity_id, bank_account_id, CASE WHEN ledger_entry_id IS NULL THEN -1 ELSE 0 END FROM old_rows) c
                 GROUP BY 1, 2 HAVING sum(delta) <> 0) d
         WHERE a.entity_id = d.entity_id AND a.id = d.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_inserted AFTER INSERT ON bank_movements REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_inserted()`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_deleted AFTER DELETE ON bank_movements REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_deleted()`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_updated AFTER UPDATE ON bank_movements REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_updated()`);
  }
}
