import { MigrationInterface, QueryRunner } from 'typeorm';

export class DteExportAndLiquidacionTotals1795713090289 implements MigrationInterface {
  name = 'DteExportAndLiquidacionTotals1795713090289';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dtes" DROP CONSTRAINT "dtes_amounts_check"`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD "foreign_currency" text`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD "foreign_currency_name" text`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD "foreign_exempt_amount" numeric`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD "foreign_total_amount" numeric`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD "foreign_exchange_rate" numeric`);
    await queryRunner.query(`ALTER TABLE "dtes" ALTER COLUMN "exempt_amount" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dtes" ALTER COLUMN "total_amount" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD CONSTRAINT "dtes_export_amounts_check" CHECK (CASE WHEN "dte_type" IN (110, 111, 112) THEN ("foreign_currency_name" IS NULL) = ("foreign_total_amount" IS NULL) AND "foreign_exempt_amount" >= 0 AND "foreign_total_amount" >= 0 ELSE "foreign_currency_name" IS NULL AND "foreign_total_amount" IS NULL AND "exempt_amount" IS NOT NULL AND "total_amount" IS NOT NULL END)`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD CONSTRAINT "dtes_signed_amounts_check" CHECK ("dte_type" = 43 OR ("net_amount" >= 0 AND "exempt_amount" >= 0 AND "tax_amount" >= 0 AND "total_amount" >= 0))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dtes" DROP CONSTRAINT "dtes_signed_amounts_check"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP CONSTRAINT "dtes_export_amounts_check"`);
    await queryRunner.query(`ALTER TABLE "dtes" ALTER COLUMN "total_amount" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dtes" ALTER COLUMN "exempt_amount" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP COLUMN "foreign_exchange_rate"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP COLUMN "foreign_total_amount"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP COLUMN "foreign_exempt_amount"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP COLUMN "foreign_currency_name"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP COLUMN "foreign_currency"`);
    await queryRunner.query(`ALTER TABLE "dtes" ADD CONSTRAINT "dtes_amounts_check" CHECK (((net_amount >= 0) AND (exempt_amount >= 0) AND (tax_amount >= 0) AND (total_amount >= 0)))`);
  }
}
