import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, the ledger's read seam:
 * - the closing entries (D90, `source` `closing`) of an Entity by date, for the closing-entry rule
 *   every report applies (the closing entries dated in a report's range are left out: their few
 *   lines are subtracted from the monthly totals, found through this partial index);
 * - `ledger_entries_source_check` goes: the entry sources are declared by the modules that bring
 *   them (`entrySource(...)` in the ledger's API) and checked by the posting, so a new document
 *   module (closings) adds its kind without a migration.
 */
export class LedgerReadSeam1796604841914 implements MigrationInterface {
  name = 'LedgerReadSeam1796604841914';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ledger_entries_closing_idx" ON "ledger_entries" ("entity_id", "entry_date") WHERE "source" = 'closing'`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_source_check"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_source_check" CHECK ("source" IN ('manual', 'scheduled', 'invoice', 'bank_movement', 'reversal')) NOT VALID`,
    );
    await queryRunner.query(`DROP INDEX "public"."ledger_entries_closing_idx"`);
  }
}
