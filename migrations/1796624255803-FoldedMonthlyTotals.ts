import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 36c: the monthly totals of months before the current one are folded into one row per
 * account, Book and month (partner too), slot -1, a slot postings never write (they write 0-31).
 * The rows still to fold are those of slot 0-31: a partial index on them (month first) lets the
 * folding job find the Entities with past months left to fold without reading the folded rows.
 * It holds only the rows of slot >= 0, so a folded row costs it nothing, and a posting pays one
 * entry when it starts a new slot row (an update of a row's figures changes no key of it).
 */
export class FoldedMonthlyTotals1796624255803 implements MigrationInterface {
  name = 'FoldedMonthlyTotals1796624255803';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ledger_account_monthly_totals_unfolded_idx" ON "ledger_account_monthly_totals" ("month", "entity_id") WHERE "slot" >= 0`);
    await queryRunner.query(`CREATE INDEX "ledger_partner_monthly_totals_unfolded_idx" ON "ledger_partner_monthly_totals" ("month", "entity_id") WHERE "slot" >= 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_partner_monthly_totals_unfolded_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_account_monthly_totals_unfolded_idx"`);
  }
}
