import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 37: invoice_month_totals, the month's sums of the invoices in the Entity's currency, kept
 * by the statements that write invoices (SqlInvoiceRepository: insert, save, delete), in the same
 * statement, as the ledger's aggregates are (no trigger: D94). Filled here from the invoices there are.
 */
export const INVOICE_MONTH_TOTALS_BACKFILL = `INSERT INTO invoice_month_totals (entity_id, month, direction, document_kind, slot, invoice_count, exempt_amount, net_amount, tax_amount, total_amount)
  SELECT entity_id, date_trunc('month', issue_date)::date, direction, document_kind, hashtext(id::text) & 15, count(*), sum(exempt_amount), sum(net_amount), sum(tax_amount), sum(total_amount)
    FROM invoices WHERE exchange_rate IS NULL GROUP BY 1, 2, 3, 4, 5`;

export class InvoiceMonthTotals1796608413207 implements MigrationInterface {
  name = 'InvoiceMonthTotals1796608413207';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "invoice_month_totals" ("entity_id" uuid NOT NULL, "month" date NOT NULL, "direction" text NOT NULL, "document_kind" text NOT NULL, "slot" smallint NOT NULL, "invoice_count" integer NOT NULL, "exempt_amount" bigint NOT NULL, "net_amount" bigint NOT NULL, "tax_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, CONSTRAINT "PK_b38daee2907e411c765a2bdf369" PRIMARY KEY ("entity_id", "month", "direction", "document_kind", "slot"))`);
    await queryRunner.query(`CREATE INDEX "invoices_foreign_issue_date_idx" ON "invoices"  ("entity_id", "issue_date") WHERE "exchange_rate" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "invoice_month_totals" ADD CONSTRAINT "invoice_month_totals_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`LOCK TABLE invoices IN SHARE MODE`);
    await queryRunner.query(INVOICE_MONTH_TOTALS_BACKFILL);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoice_month_totals" DROP CONSTRAINT "invoice_month_totals_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_foreign_issue_date_idx"`);
    await queryRunner.query(`DROP TABLE "invoice_month_totals"`);
  }
}
