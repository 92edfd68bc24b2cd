import { MigrationInterface, QueryRunner } from 'typeorm';

export class SeveredBookings1795712617051 implements MigrationInterface {
  name = 'SeveredBookings1795712617051';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoices" ADD "severed_entry_id" uuid`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD "severed_open_item_line_id" uuid`);
    await queryRunner.query(`ALTER TABLE "bank_movements" ADD "severed_entry_id" uuid`);
    await queryRunner.query(`CREATE INDEX "invoices_severed_entry_idx" ON "invoices"  ("entity_id", "severed_entry_id") WHERE "severed_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "bank_movements_severed_entry_idx" ON "bank_movements"  ("entity_id", "severed_entry_id") WHERE "severed_entry_id" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."bank_movements_severed_entry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_severed_entry_idx"`);
    await queryRunner.query(`ALTER TABLE "bank_movements" DROP COLUMN "severed_entry_id"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP COLUMN "severed_open_item_line_id"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP COLUMN "severed_entry_id"`);
  }
}
