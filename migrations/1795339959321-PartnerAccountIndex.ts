import { MigrationInterface, QueryRunner } from 'typeorm';

export class PartnerAccountIndex1795339959321 implements MigrationInterface {
  name = 'PartnerAccountIndex1795339959321';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines"  ("entity_id", "partner_id", "account_id", "entry_date", "id") WHERE "partner_id" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines" USING btree ("entity_id", "entry_date", "id", "partner_id") WHERE (partner_id IS NOT NULL)`);
  }
}
