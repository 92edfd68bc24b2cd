import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Match candidates (D66) find the unsettled open-item lines whose open amount equals a
 * movement's amount without scanning the open items: an index on the open amount, with the
 * predicate of ledger_lines_open_items_idx.
 */
export class BankMatchCandidates1795702486990 implements MigrationInterface {
  name = 'BankMatchCandidates1795702486990';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ledger_lines_open_amount_idx" ON "ledger_lines" ("entity_id", (("amount" - "allocated_amount")), "entry_date") WHERE "is_open_item" AND "status" IN ('active', 'reversed') AND "allocated_amount" < "amount"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_open_amount_idx"`);
  }
}
