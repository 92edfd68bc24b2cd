import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32 (the partner ledger's speed): each line carries its entry's memo, as it carries its
 * date, status and Book, so the partner ledger reads a line's memo from the line it has found
 * through the partner index instead of one primary-key lookup of the entry per line (three or
 * four index pages each). The posting statements write it and the entry's header change moves it
 * with the date and status (entry.repository.ts `saveHeader`).
 *
 * The memo is not in the covering partner index: a memo has no bound in bytes (1,000 characters
 * through the API, more in "Reversal of ..."), and an index row over about 2.7 kB is refused, which
 * would refuse the posting.
 *
 * The backfill is one UPDATE joined on the entries' key (entity_id, entry_id): every line gets a
 * new version (about 80 s for 1,000,001 lines on the bench's machine), so the partner index is
 * dropped before it (one index fewer to write) and built again, unchanged, after. The old
 * versions are dead rows that autovacuum makes reusable; the table's pages are not given back
 * (`VACUUM (FULL)` or pg_repack in a maintenance window would).
 */
export class LineMemo1796624346343 implements MigrationInterface {
  name = 'LineMemo1796624346343';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" ADD "memo" text`);
    await queryRunner.query(`UPDATE "ledger_lines" l SET "memo" = e."memo" FROM "ledger_entries" e WHERE e."entity_id" = l."entity_id" AND e."id" = l."entry_id"`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" ALTER COLUMN "memo" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines" ("entity_id", "partner_id", "account_id", "entry_date", "entry_id", "id")
         INCLUDE ("side", "amount", "allocated_amount", "status", "book_id") WHERE "partner_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_lines" DROP COLUMN "memo"`);
  }
}
