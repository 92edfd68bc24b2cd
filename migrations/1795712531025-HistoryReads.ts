import { MigrationInterface, QueryRunner } from 'typeorm';
import { collateClause, UNICODE_COLLATION_QUERY } from '../src/platform/database/unicode-collation';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
/** Lines without a partner spread over 32 rows (as D55's totals do); a partner's lines share one row. */
// Every line's rows spread over 32 slots by entry id (as the account monthly totals): postings of
// one partner, account and month would otherwise queue on one row to their commit.
const SLOT = `get_byte(uuid_send(r.entry_id), 15) % 32`;

/** The contribution of the lines of `relation`, times `sign`, to each maintained table. */
function openItemRows(relation: string, sign: string): string {
  return `SELECT r.entity_id, r.account_id, coalesce(r.book_id, ${NIL}) AS book_key, coalesce(r.partner_id, ${NIL}) AS partner_key, ${SLOT} AS slot,
                 ${sign} AS line_count, CASE WHEN r.allocated_amount < r.amount THEN ${sign} ELSE 0 END AS open_count,
                 ${sign} * (CASE r.side WHEN 'debit' THEN r.amount - r.allocated_amount ELSE r.allocated_amount - r.amount END)::numeric AS open_total
            FROM ${relation} r WHERE r.is_open_item AND r.status IN ('active', 'reversed')`;
}
function partnerMonthRows(relation: string, sign: string): string {
  return `SELECT r.entity_id, r.account_id, coalesce(r.partner_id, ${NIL}) AS partner_key, coalesce(r.book_id, ${NIL}) AS book_key,
                 date_trunc('month', r.entry_date)::date AS month, ${SLOT} AS slot,
                 ${sign} * (CASE r.side WHEN 'debit' THEN r.amount ELSE 0 END)::numeric AS debit,
                 ${sign} * (CASE r.side WHEN 'credit' THEN r.amount ELSE 0 END)::numeric AS credit, ${sign} AS line_count
            FROM ${relation} r WHERE r.status IN ('active', 'reversed')`;
}
function upserts(rows: (kind: 'open' | 'month') => string): string {
  return `
    INSERT INTO ledger_open_item_totals AS t (entity_id, account_id, book_key, partner_key, slot, line_count, open_count, open_total)
    SELECT entity_id, account_id, book_key, partner_key, slot, sum(line_count), sum(open_count), sum(open_total)
      FROM (${rows('open')}) d GROUP BY 1, 2, 3, 4, 5
    HAVING sum(line_count) <> 0 OR sum(open_count) <> 0 OR sum(open_total) <> 0
     -- One order for every writer: two transactions locking the same rows cannot deadlock.
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (entity_id, account_id, book_key, partner_key, slot) DO UPDATE
      SET line_count = t.line_count + EXCLUDED.line_count, open_count = t.open_count + EXCLUDED.open_count, open_total = t.open_total + EXCLUDED.open_total;
    INSERT INTO ledger_partner_monthly_totals AS t (entity_id, account_id, partner_key, book_key, month, slot, debit, credit, line_count)
    SELECT entity_id, account_id, partner_key, book_key, month, slot, sum(debit), sum(credit), sum(line_count)
      FROM (${rows('month')}) d GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(line_count) <> 0 OR sum(debit) <> 0 OR sum(credit) <> 0
     ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (entity_id, account_id, partner_key, book_key, month, slot) DO UPDATE
      SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count;`;
}
const pick = (relation: string, sign: string) => (kind: 'open' | 'month') => (kind === 'open' ? openItemRows(relation, sign) : partnerMonthRows(relation, sign));
const both = (a: (kind: 'open' | 'month') => string, b: (kind: 'open' | 'month') => string) => (kind: 'open' | 'month') => `${a(kind)} UNION ALL ${b(kind)}`;

/**
 * Issue 25 item 3, reads that grew with history:
 * - trigram indexes (pg_trgm) over the folded memo, notes and line description, so a `search`
 *   for a term found nowhere reads no line (D54's ILIKE, written as LIKE over lower() under the
 *   same collation, which is what ILIKE computes in a UTF-8 database);
 * - per account, Book and partner, the open-item lines' count and open total
 *   (ledger_open_item_totals), and per account, partner, Book and month the live lines' sums
 *   (ledger_partner_monthly_totals), kept by statement triggers on ledger_lines in the writing
 *   transaction, whatever path changed a line (posting, unbooking, reversal, allocation, edit).
 * Existing data is backfilled here.
 */
export class HistoryReads1795712531025 implements MigrationInterface {
  name = 'HistoryReads1795712531025';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const collate = collateClause(await queryRunner.query(UNICODE_COLLATION_QUERY));
    await queryRunner.query(`CREATE INDEX "ledger_entries_memo_trgm_idx" ON "ledger_entries" USING gin ((lower("memo"${collate})) gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX "ledger_entries_notes_trgm_idx" ON "ledger_entries" USING gin ((lower("notes"${collate})) gin_trgm_ops) WHERE "notes" IS NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ledger_lines_description_trgm_idx" ON "ledger_lines" USING gin ((lower("description"${collate})) gin_trgm_ops) WHERE "description" IS NOT NULL`,
    );

    await queryRunner.query(`CREATE TABLE "ledger_open_item_totals" ("entity_id" uuid NOT NULL, "account_id" uuid NOT NULL, "book_key" uuid NOT NULL, "partner_key" uuid NOT NULL,
      "slot" smallint NOT NULL, "line_count" integer NOT NULL, "open_count" integer NOT NULL, "open_total" numeric NOT NULL,
      CONSTRAINT "ledger_open_item_totals_pkey" PRIMARY KEY ("entity_id", "account_id", "book_key", "partner_key", "slot"),
      CONSTRAINT "ledger_open_item_totals_account_fk" FOREIGN KEY ("entity_id", "account_id") REFERENCES "ledger_accounts"("entity_id", "id") ON DELETE RESTRICT)`);
    await queryRunner.query(`CREATE TABLE "ledger_partner_monthly_totals" ("entity_id" uuid NOT NULL, "account_id" uuid NOT NULL, "partner_key" uuid NOT NULL, "book_key" uuid NOT NULL,
      "month" date NOT NULL, "slot" smallint NOT NULL, "debit" numeric NOT NULL, "credit" numeric NOT NULL, "line_count" integer NOT NULL,
      CONSTRAINT "ledger_partner_monthly_totals_pkey" PRIMARY KEY ("entity_id", "account_id", "partner_key", "book_key", "month", "slot"),
      CONSTRAINT "ledger_partner_monthly_totals_account_fk" FOREIGN KEY ("entity_id", "account_id") REFERENCES "ledger_accounts"("entity_id", "id") ON DELETE RESTRICT)`);

    await queryRunner.query(`CREATE FUNCTION ledger_lines_maintain_totals() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${upserts(pick('new_lines', '1'))}
        ELSIF TG_OP = 'UPDATE' THEN
          ${upserts(both(pick('new_lines', '1'), pick('old_lines', '-1')))}
        ELSE
          ${upserts(pick('old_lines', '-1'))}
        END IF;
        RETURN NULL;
      END $fn$`);
    await queryRunner.query(`CREATE TRIGGER ledger_lines_totals_insert AFTER INSERT ON ledger_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`);
    await queryRunner.query(
      `CREATE TRIGGER ledger_lines_totals_update AFTER UPDATE ON ledger_lines REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`,
    );
    await queryRunner.query(`CREATE TRIGGER ledger_lines_totals_delete AFTER DELETE ON ledger_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`);

    // Backfill: the lines already written, in one pass per table.
    await queryRunner.query(`DO $do$ BEGIN ${upserts(pick('ledger_lines', '1'))} END $do$`);
    // Statistics for the new expression indexes (the planner's estimate of a search term), on a
    // database with lines only: analysed empty, the tables would be planned as empty (sequential
    // scans in the posting's cached plans) until autovacuum's next pass, about a minute later.
    await queryRunner.query(
      `DO $do$ BEGIN IF EXISTS (SELECT 1 FROM ledger_lines) THEN ANALYZE ledger_entries, ledger_lines, ledger_open_item_totals, ledger_partner_monthly_totals; END IF; END $do$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER ledger_lines_totals_delete ON ledger_lines');
    await queryRunner.query('DROP TRIGGER ledger_lines_totals_update ON ledger_lines');
    await queryRunner.query('DROP TRIGGER ledger_lines_totals_insert ON ledger_lines');
    await queryRunner.query('DROP FUNCTION ledger_lines_maintain_totals()');
    await queryRunner.query('DROP TABLE "ledger_partner_monthly_totals"');
    await queryRunner.query('DROP TABLE "ledger_open_item_totals"');
    await queryRunner.query('DROP INDEX "ledger_lines_description_trgm_idx"');
    await queryRunner.query('DROP INDEX "ledger_entries_notes_trgm_idx"');
    await queryRunner.query('DROP INDEX "ledger_entries_memo_trgm_idx"');
  }
}
