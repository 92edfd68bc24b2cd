import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner index covers the partner ledger: its lines in (partner, date, entry, line) order and
 * the columns the report reads, so openings and lines come from the index alone.
 */
export class PartnerLedgerCoveringIndex1795437098623 implements MigrationInterface {
  name = 'PartnerLedgerCoveringIndex1795437098623';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(
      `CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines" ("entity_id", "partner_id", "account_id", "entry_date", "entry_id", "id")
         INCLUDE ("side", "amount", "allocated_amount", "status", "book_id") WHERE "partner_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines" ("entity_id", "partner_id", "account_id", "entry_date", "id") WHERE "partner_id" IS NOT NULL`);
  }
}
