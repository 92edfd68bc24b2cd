import { MigrationInterface, QueryRunner } from 'typeorm';

export class FxRates1795500022000 implements MigrationInterface {
  name = 'FxRates1795500022000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "fx_rates" ("source" text NOT NULL, "currency" text NOT NULL, "date" date NOT NULL, "functional_currency" text NOT NULL, "rate" numeric NOT NULL, "stored_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "fx_rates_source_check" CHECK ("source" IN ('offline', 'cmf')), CONSTRAINT "fx_rates_rate_check" CHECK ("rate" > 0), CONSTRAINT "fx_rates_pkey" PRIMARY KEY ("source", "currency", "date"))`);
    await queryRunner.query(`CREATE INDEX "fx_rates_source_date_idx" ON "fx_rates" ("source", "date", "currency") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."fx_rates_source_date_idx"`);
    await queryRunner.query(`DROP TABLE "fx_rates"`);
  }
}
