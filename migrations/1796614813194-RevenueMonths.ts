import { MigrationInterface, QueryRunner } from 'typeorm';
import * as currencyCodes from 'currency-codes';
import { insertCellsSql, revenueCellsSql } from '../src/modules/reports/infrastructure/persistence/revenue-months.sql';

/** Each currency's minor-unit exponent, as the reference data gives it (ReferenceDataService). */
export const CURRENCY_EXPONENTS = JSON.stringify(Object.fromEntries(currencyCodes.data.map((c) => [c.code, c.digits])));

/**
 * Revenue cells from the booked AR invoices there are (of every Entity, or of the Entity `$2`
 * with `oneEntity`), then the months as their sums on slot 0 (of the Entity `$1` with `oneEntity`);
 * the cells run with CURRENCY_EXPONENTS as `$1`.
 * The statements that change the read model keep both afterwards (BookedInvoicesReadModel).
 */
export function revenueMonthsBackfill(oneEntity = false): string[] {
  const only = (alias: string, placeholder = '$2') => (oneEntity ? `AND ${alias}.entity_id = ${placeholder}` : '');
  return [
    insertCellsSql(
      revenueCellsSql(
        `(SELECT r.entity_id, r.invoice_id, r.book_key, r.issue_date, r.period_start, r.period_end, r.currency, r.exchange_rate, r.net_amount, r.exempt_amount,
                 r.receivable_side, r.document_kind, r.receivable_amount, r.booked_on
            FROM report_booked_invoices r WHERE r.direction = 'ar' ${only('r')})`,
        `(SELECT st.invoice_id, st.settled_on, st.amount FROM report_invoice_settlements st WHERE true ${only('st')})`,
        `(SELECT fx.currency FROM entities fx WHERE fx.id = v.entity_id)`,
        '$1::jsonb',
      ),
    ),
    `INSERT INTO report_revenue_months (entity_id, book_key, month, issue_month, slot, recognized, billed, collected, open_change)
     SELECT c.entity_id, c.book_key, c.month, c.issue_month, 0, sum(c.recognized), sum(c.billed), sum(c.collected), sum(c.open_change)
       FROM report_revenue_cells c WHERE true ${only('c', '$1')} GROUP BY 1, 2, 3, 4`,
  ];
}

/**
 * Issue 35: revenue realization's month figures kept at write time (report_revenue_cells,
 * report_revenue_months), backfilled; and a covering index by issue date for its pages.
 */
export class RevenueMonths1796614813194 implements MigrationInterface {
  name = 'RevenueMonths1796614813194';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "report_revenue_cells" ("entity_id" uuid NOT NULL, "invoice_id" uuid NOT NULL, "month" date NOT NULL, "book_key" uuid NOT NULL, "issue_month" date NOT NULL, "booked_month" date NOT NULL, "recognized" bigint NOT NULL, "billed" bigint NOT NULL, "collected" bigint NOT NULL, "open_change" bigint NOT NULL, CONSTRAINT "PK_report_revenue_cells" PRIMARY KEY ("entity_id", "invoice_id", "month"))`,
    );
    await queryRunner.query(`CREATE INDEX "report_revenue_cells_early_idx" ON "report_revenue_cells" ("entity_id", "month") WHERE "month" < "booked_month" AND "collected" <> 0`);
    await queryRunner.query(
      `CREATE TABLE "report_revenue_months" ("entity_id" uuid NOT NULL, "book_key" uuid NOT NULL, "month" date NOT NULL, "issue_month" date NOT NULL, "slot" smallint NOT NULL, "recognized" bigint NOT NULL, "billed" bigint NOT NULL, "collected" bigint NOT NULL, "open_change" bigint NOT NULL, CONSTRAINT "PK_report_revenue_months" PRIMARY KEY ("entity_id", "book_key", "month", "issue_month", "slot"))`,
    );
    await queryRunner.query(`ALTER TABLE "report_revenue_cells" ADD CONSTRAINT "report_revenue_cells_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "report_revenue_months" ADD CONSTRAINT "report_revenue_months_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(
      `CREATE INDEX "report_booked_invoices_issue_cover_idx" ON "report_booked_invoices" ("entity_id", "direction", "issue_date", "invoice_id")
         INCLUDE ("book_key", "period_start", "period_end", "booked_on", "settled_amount", "receivable_amount", "last_settled_on")`,
    );
    await queryRunner.query(`LOCK TABLE report_booked_invoices, report_invoice_settlements IN SHARE MODE`);
    const [cells, months] = revenueMonthsBackfill();
    await queryRunner.query(cells, [CURRENCY_EXPONENTS]);
    await queryRunner.query(months);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_issue_cover_idx"`);
    await queryRunner.query(`DROP TABLE "report_revenue_months"`);
    await queryRunner.query(`DROP TABLE "report_revenue_cells"`);
  }
}
