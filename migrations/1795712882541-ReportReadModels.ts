import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backfill (issue 22), also run by the dashboards bench seed after its direct inserts: every
 * booked invoice whose entry is live, with its open-item line (its allocated amount as settled),
 * and the allocations settling that line (not a reversal's netting), dated by the settling entry.
 */
export const REPORT_READ_MODEL_BACKFILL = [
  `INSERT INTO "report_booked_invoices" ("entity_id", "invoice_id", "direction", "entry_id", "line_id", "book_key", "document_kind", "document_number", "partner_id",
        "issue_date", "due_date", "service_period_start", "service_period_end", "period_start", "period_end", "currency", "exchange_rate", "net_amount", "exempt_amount",
        "receivable_side", "receivable_amount", "booked_on", "settled_amount", "last_settled_on")
      SELECT i.entity_id, i.id, i.direction, i.ledger_entry_id, l.id, coalesce(l.book_id, '00000000-0000-0000-0000-000000000000'::uuid), i.document_kind, i.document_number, i.partner_id,
             i.issue_date, i.due_date, i.service_period_start, i.service_period_end, coalesce(i.service_period_start, i.issue_date), coalesce(i.service_period_end, i.issue_date),
             i.currency, i.exchange_rate, i.net_amount, i.exempt_amount, l.side, l.amount, l.entry_date, l.allocated_amount, NULL
        FROM invoices i JOIN ledger_lines l ON l.entity_id = i.entity_id AND l.id = i.open_item_line_id
       WHERE i.book_status = 'booked' AND l.status IN ('active', 'reversed')
      ON CONFLICT DO NOTHING`,
  `INSERT INTO "report_invoice_settlements" ("entity_id", "invoice_id", "allocation_id", "settling_entry_id", "settled_on", "amount")
      SELECT r.entity_id, r.invoice_id, a.id, s.entry_id, s.entry_date, a.amount
        FROM report_booked_invoices r
        JOIN reconciliation_allocations a ON a.entity_id = r.entity_id AND a.debit_line_id = r.line_id AND a.kind <> 'reversal'
        JOIN ledger_lines s ON s.entity_id = a.entity_id AND s.id = a.credit_line_id AND s.status IN ('active', 'reversed')
      UNION ALL
      SELECT r.entity_id, r.invoice_id, a.id, s.entry_id, s.entry_date, a.amount
        FROM report_booked_invoices r
        JOIN reconciliation_allocations a ON a.entity_id = r.entity_id AND a.credit_line_id = r.line_id AND a.kind <> 'reversal'
        JOIN ledger_lines s ON s.entity_id = a.entity_id AND s.id = a.debit_line_id AND s.status IN ('active', 'reversed')
      ON CONFLICT DO NOTHING`,
  `UPDATE "report_booked_invoices" r SET "last_settled_on" = x.last
        FROM (SELECT entity_id, invoice_id, max(settled_on) AS last FROM report_invoice_settlements GROUP BY entity_id, invoice_id) x
       WHERE r.entity_id = x.entity_id AND r.invoice_id = x.invoice_id`,
];

export class ReportReadModels1795712882541 implements MigrationInterface {
  name = 'ReportReadModels1795712882541';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "report_booked_invoices" ("entity_id" uuid NOT NULL, "invoice_id" uuid NOT NULL, "direction" text NOT NULL, "entry_id" uuid NOT NULL, "line_id" uuid NOT NULL, "book_key" uuid NOT NULL, "document_kind" text NOT NULL, "document_number" text NOT NULL, "partner_id" uuid NOT NULL, "issue_date" date NOT NULL, "due_date" date, "service_period_start" date, "service_period_end" date, "period_start" date NOT NULL, "period_end" date NOT NULL, "currency" text NOT NULL, "exchange_rate" numeric, "net_amount" bigint NOT NULL, "exempt_amount" bigint NOT NULL, "receivable_side" text NOT NULL, "receivable_amount" bigint NOT NULL, "booked_on" date NOT NULL, "settled_amount" bigint NOT NULL DEFAULT '0', "last_settled_on" date, CONSTRAINT "report_booked_invoices_period_check" CHECK ("period_start" <= "period_end"), CONSTRAINT "report_booked_invoices_side_check" CHECK ("receivable_side" IN ('debit', 'credit')), CONSTRAINT "report_booked_invoices_direction_check" CHECK ("direction" IN ('ar', 'ap')), CONSTRAINT "PK_2fad2662f2fbd15dd1e47cc72b8" PRIMARY KEY ("entity_id", "invoice_id"))`);
    await queryRunner.query(`CREATE INDEX "report_booked_invoices_open_idx" ON "report_booked_invoices"  ("entity_id", "direction", "booked_on") WHERE "settled_amount" < "receivable_amount"`);
    await queryRunner.query(`CREATE INDEX "report_booked_invoices_settled_idx" ON "report_booked_invoices"  ("entity_id", "direction", "last_settled_on") WHERE "last_settled_on" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "report_booked_invoices_issue_idx" ON "report_booked_invoices"  ("entity_id", "direction", "issue_date") `);
    await queryRunner.query(`CREATE INDEX "report_booked_invoices_period_idx" ON "report_booked_invoices"  ("entity_id", "direction", "period_end", "period_start") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "report_booked_invoices_line_key" ON "report_booked_invoices"  ("entity_id", "line_id") `);
    await queryRunner.query(`CREATE INDEX "report_booked_invoices_entry_idx" ON "report_booked_invoices"  ("entity_id", "entry_id") `);
    await queryRunner.query(`CREATE TABLE "report_invoice_settlements" ("entity_id" uuid NOT NULL, "invoice_id" uuid NOT NULL, "allocation_id" uuid NOT NULL, "settling_entry_id" uuid NOT NULL, "settled_on" date NOT NULL, "amount" bigint NOT NULL, CONSTRAINT "PK_4440d3baec9e4915239ffa3214b" PRIMARY KEY ("entity_id", "invoice_id", "allocation_id"))`);
    await queryRunner.query(`CREATE INDEX "report_invoice_settlements_entry_idx" ON "report_invoice_settlements"  ("entity_id", "settling_entry_id") `);
    for (const statement of REPORT_READ_MODEL_BACKFILL) await queryRunner.query(statement);
    await queryRunner.query(`ALTER TABLE "report_booked_invoices" ADD CONSTRAINT "report_booked_invoices_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "report_invoice_settlements" ADD CONSTRAINT "FK_0be0ef47561e00bb4d9508c8f5c" FOREIGN KEY ("entity_id", "invoice_id") REFERENCES "report_booked_invoices"("entity_id","invoice_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "report_invoice_settlements" DROP CONSTRAINT "FK_0be0ef47561e00bb4d9508c8f5c"`);
    await queryRunner.query(`ALTER TABLE "report_booked_invoices" DROP CONSTRAINT "report_booked_invoices_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."report_invoice_settlements_entry_idx"`);
    await queryRunner.query(`DROP TABLE "report_invoice_settlements"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_entry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_line_key"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_period_idx"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_issue_idx"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_settled_idx"`);
    await queryRunner.query(`DROP INDEX "public"."report_booked_invoices_open_idx"`);
    await queryRunner.query(`DROP TABLE "report_booked_invoices"`);
  }
}
