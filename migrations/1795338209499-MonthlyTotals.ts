import { MigrationInterface, QueryRunner } from 'typeorm';

export class MonthlyTotals1795338209499 implements MigrationInterface {
  name = 'MonthlyTotals1795338209499';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "ledger_account_monthly_totals" ("entity_id" uuid NOT NULL, "account_id" uuid NOT NULL, "book_key" uuid NOT NULL, "month" date NOT NULL, "slot" smallint NOT NULL, "debit" bigint NOT NULL, "credit" bigint NOT NULL, "line_count" integer NOT NULL, CONSTRAINT "PK_448c5dcecd038a70ef9160e3c80" PRIMARY KEY ("entity_id", "account_id", "book_key", "month", "slot"))`);
    await queryRunner.query(`CREATE INDEX "ledger_account_monthly_totals_month_idx" ON "ledger_account_monthly_totals"  ("entity_id", "month") `);
    await queryRunner.query(`ALTER TABLE "ledger_account_monthly_totals" ADD CONSTRAINT "FK_4ec973677147dcf79a0f648c164" FOREIGN KEY ("entity_id", "account_id") REFERENCES "ledger_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_account_monthly_totals" DROP CONSTRAINT "FK_4ec973677147dcf79a0f648c164"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_account_monthly_totals_month_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_account_monthly_totals"`);
  }
}
