import { MigrationInterface, QueryRunner } from 'typeorm';

const NIL = `'00000000-0000-0000-0000-000000000000'::uuid`;
const SLOT = `get_byte(uuid_send(l.entry_id), 15) % 32`;

/**
 * The line aggregates of one Entity (`$1`) rebuilt from its lines: for a bulk path that writes
 * lines without the statements that keep them (the bench seed), and for checks.
 */
export const LINE_AGGREGATES_REBUILD = [
  `DELETE FROM ledger_open_item_totals WHERE entity_id = $1`,
  `INSERT INTO ledger_open_item_totals (entity_id, account_id, book_key, partner_key, slot, line_count, open_count, open_total)
   SELECT l.entity_id, l.account_id, coalesce(l.book_id, ${NIL}), coalesce(l.partner_id, ${NIL}), ${SLOT},
          count(*), count(*) FILTER (WHERE l.allocated_amount < l.amount),
          sum((CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)::numeric)
     FROM ledger_lines l WHERE l.entity_id = $1 AND l.is_open_item AND l.status IN ('active', 'reversed')
    GROUP BY 1, 2, 3, 4, 5`,
  `DELETE FROM ledger_partner_monthly_totals WHERE entity_id = $1`,
  `INSERT INTO ledger_partner_monthly_totals (entity_id, account_id, partner_key, book_key, month, slot, debit, credit, line_count)
   SELECT l.entity_id, l.account_id, coalesce(l.partner_id, ${NIL}), coalesce(l.book_id, ${NIL}), date_trunc('month', l.entry_date)::date, ${SLOT},
          coalesce(sum(l.amount) FILTER (WHERE l.side = 'debit'), 0), coalesce(sum(l.amount) FILTER (WHERE l.side = 'credit'), 0), count(*)
     FROM ledger_lines l WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed')
    GROUP BY 1, 2, 3, 4, 5, 6`,
];

/**
 * Issue 25: ledger_open_item_totals and ledger_partner_monthly_totals are kept by the statements
 * that write lines (LINE_AGGREGATES_UPSERT in the ledger's SQL), as the account monthly totals
 * are (D55), no longer by statement triggers on ledger_lines: the triggers' transition tables
 * cost every write to the lines, even disabled, more than the upserts themselves (bench/README.md).
 * The figures themselves are unchanged: the triggers kept them until this migration runs.
 */
export class LineAggregatesInStatements1795724724976 implements MigrationInterface {
  name = 'LineAggregatesInStatements1795724724976';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS ledger_lines_totals_delete ON ledger_lines');
    await queryRunner.query('DROP TRIGGER IF EXISTS ledger_lines_totals_update ON ledger_lines');
    await queryRunner.query('DROP TRIGGER IF EXISTS ledger_lines_totals_insert ON ledger_lines');
    await queryRunner.query('DROP FUNCTION IF EXISTS ledger_lines_maintain_totals()');
  }

  /** The triggers as HistoryReads1795712531025 made them (the same upserts, over the transition tables). */
  async down(queryRunner: QueryRunner): Promise<void> {
    const upserts = (changes: string) => `
      INSERT INTO ledger_open_item_totals AS t (entity_id, account_id, book_key, partner_key, slot, line_count, open_count, open_total)
      SELECT l.entity_id, l.account_id, coalesce(l.book_id, ${NIL}), coalesce(l.partner_id, ${NIL}), ${SLOT}, sum(l.sign),
             sum(CASE WHEN l.allocated_amount < l.amount THEN l.sign ELSE 0 END),
             sum(l.sign * (CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)::numeric)
        FROM (${changes}) l WHERE l.is_open_item AND l.status IN ('active', 'reversed') GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (entity_id, account_id, book_key, partner_key, slot) DO UPDATE
        SET line_count = t.line_count + EXCLUDED.line_count, open_count = t.open_count + EXCLUDED.open_count, open_total = t.open_total + EXCLUDED.open_total;
      INSERT INTO ledger_partner_monthly_totals AS t (entity_id, account_id, partner_key, book_key, month, slot, debit, credit, line_count)
      SELECT l.entity_id, l.account_id, coalesce(l.partner_id, ${NIL}), coalesce(l.book_id, ${NIL}), date_trunc('month', l.entry_date)::date, ${SLOT},
             coalesce(sum(l.sign * l.amount) FILTER (WHERE l.side = 'debit'), 0), coalesce(sum(l.sign * l.amount) FILTER (WHERE l.side = 'credit'), 0), sum(l.sign)
        FROM (${changes}) l WHERE l.status IN ('active', 'reversed') GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (entity_id, account_id, partner_key, book_key, month, slot) DO UPDATE
        SET debit = t.debit + EXCLUDED.debit, credit = t.credit + EXCLUDED.credit, line_count = t.line_count + EXCLUDED.line_count;`;
    await queryRunner.query(`CREATE FUNCTION ledger_lines_maintain_totals() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${upserts('SELECT 1 AS sign, * FROM new_lines')}
        ELSIF TG_OP = 'UPDATE' THEN ${upserts('SELECT 1 AS sign, * FROM new_lines UNION ALL SELECT -1, * FROM old_lines')}
        ELSE ${upserts('SELECT -1 AS sign, * FROM old_lines')}
        END IF;
        RETURN NULL;
      END $fn$`);
    await queryRunner.query(`CREATE TRIGGER ledger_lines_totals_insert AFTER INSERT ON ledger_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`);
    await queryRunner.query(
      `CREATE TRIGGER ledger_lines_totals_update AFTER UPDATE ON ledger_lines REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`,
    );
    await queryRunner.query(`CREATE TRIGGER ledger_lines_totals_delete AFTER DELETE ON ledger_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_maintain_totals()`);
  }
}
