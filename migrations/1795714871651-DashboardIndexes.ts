import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardIndexes1795714871651 implements MigrationInterface {
  name = 'DashboardIndexes1795714871651';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "invoices_unbooked_idx" ON "invoices"  ("entity_id", "direction") WHERE "book_status" = 'unbooked'`);
    await queryRunner.query(`CREATE INDEX "bank_movements_booked_tax_idx" ON "bank_movements"  ("entity_id", "counterparty_tax_id", "movement_date", "id") WHERE "ledger_entry_id" IS NOT NULL AND "counterparty_tax_id" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."bank_movements_booked_tax_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_unbooked_idx"`);
  }
}
