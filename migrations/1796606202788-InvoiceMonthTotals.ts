import { MigrationInterface, QueryRunner } from 'typeorm';

/** One signed move of a row of invoice_month_totals (sign 1 adds the invoice `r`, -1 takes it out). */
const move = (r: 'NEW' | 'OLD', sign: 1 | -1) => `INSERT INTO invoice_month_totals (entity_id, month, direction, document_kind, slot, invoice_count, exempt_amount, net_amount, tax_amount, total_amount)
      VALUES (${r}.entity_id, date_trunc('month', ${r}.issue_date)::date, ${r}.direction, ${r}.document_kind, hashtext(${r}.id::text) & 15,
              ${sign}, ${sign} * ${r}.exempt_amount, ${sign} * ${r}.net_amount, ${sign} * ${r}.tax_amount, ${sign} * ${r}.total_amount)
      ON CONFLICT (entity_id, month, direction, document_kind, slot) DO UPDATE SET
        invoice_count = invoice_month_totals.invoice_count + EXCLUDED.invoice_count,
        exempt_amount = invoice_month_totals.exempt_amount + EXCLUDED.exempt_amount,
        net_amount = invoice_month_totals.net_amount + EXCLUDED.net_amount,
        tax_amount = invoice_month_totals.tax_amount + EXCLUDED.tax_amount,
        total_amount = invoice_month_totals.total_amount + EXCLUDED.total_amount`;

/** The fields a month's totals read: a change of any other (booking, description, due date) leaves them. */
const FIELDS = (r: 'NEW' | 'OLD') => `(${['direction', 'document_kind', 'issue_date', 'exchange_rate', 'exempt_amount', 'net_amount', 'tax_amount', 'total_amount'].map((c) => `${r}.${c}`).join(', ')})`;

/**
 * Issue 37: invoice_month_totals kept by a row trigger in the transaction of every write to
 * invoices (the invoices in the Entity's currency only: a foreign-currency invoice is converted
 * on its own by D7, read through invoices_foreign_issue_date_idx). Row-level, no transition
 * tables (D94); every statement names the invoice's entity_id.
 */
export const INVOICE_MONTH_TOTALS_FUNCTION = `CREATE FUNCTION invoice_month_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.exchange_rate IS NULL THEN
    ${move('OLD', -1)};
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.exchange_rate IS NULL THEN
    ${move('NEW', 1)};
  END IF;
  RETURN NULL;
END $$`;

export const INVOICE_MONTH_TOTALS_BACKFILL = `INSERT INTO invoice_month_totals (entity_id, month, direction, document_kind, slot, invoice_count, exempt_amount, net_amount, tax_amount, total_amount)
  SELECT entity_id, date_trunc('month', issue_date)::date, direction, document_kind, hashtext(id::text) & 15, count(*), sum(exempt_amount), sum(net_amount), sum(tax_amount), sum(total_amount)
    FROM invoices WHERE exchange_rate IS NULL GROUP BY 1, 2, 3, 4, 5`;

export class InvoiceMonthTotals1796606202788 implements MigrationInterface {
  name = 'InvoiceMonthTotals1796606202788';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "invoice_month_totals" ("entity_id" uuid NOT NULL, "month" date NOT NULL, "direction" text NOT NULL, "document_kind" text NOT NULL, "slot" smallint NOT NULL, "invoice_count" integer NOT NULL, "exempt_amount" bigint NOT NULL, "net_amount" bigint NOT NULL, "tax_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, CONSTRAINT "PK_b38daee2907e411c765a2bdf369" PRIMARY KEY ("entity_id", "month", "direction", "document_kind", "slot"))`);
    await queryRunner.query(`CREATE INDEX "invoices_foreign_issue_date_idx" ON "invoices"  ("entity_id", "issue_date") WHERE "exchange_rate" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "invoice_month_totals" ADD CONSTRAINT "invoice_month_totals_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(INVOICE_MONTH_TOTALS_FUNCTION);
    await queryRunner.query(`CREATE TRIGGER invoice_month_totals_written AFTER INSERT OR DELETE ON invoices FOR EACH ROW EXECUTE FUNCTION invoice_month_totals_apply()`);
    await queryRunner.query(
      `CREATE TRIGGER invoice_month_totals_changed AFTER UPDATE ON invoices FOR EACH ROW WHEN (${FIELDS('OLD')} IS DISTINCT FROM ${FIELDS('NEW')}) EXECUTE FUNCTION invoice_month_totals_apply()`,
    );
    await queryRunner.query(`LOCK TABLE invoices IN SHARE MODE`);
    await queryRunner.query(INVOICE_MONTH_TOTALS_BACKFILL);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER invoice_month_totals_changed ON invoices`);
    await queryRunner.query(`DROP TRIGGER invoice_month_totals_written ON invoices`);
    await queryRunner.query(`DROP FUNCTION invoice_month_totals_apply()`);
    await queryRunner.query(`ALTER TABLE "invoice_month_totals" DROP CONSTRAINT "invoice_month_totals_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_foreign_issue_date_idx"`);
    await queryRunner.query(`DROP TABLE "invoice_month_totals"`);
  }
}
