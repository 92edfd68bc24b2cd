import { MigrationInterface, QueryRunner } from 'typeorm';

export class SeveredBookingHistory1795722225284 implements MigrationInterface {
  name = 'SeveredBookingHistory1795722225284';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."invoices_severed_entry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."bank_movements_severed_entry_idx"`);
    await queryRunner.query(`CREATE TABLE "invoice_severed_bookings" ("entity_id" uuid NOT NULL, "entry_id" uuid NOT NULL, "invoice_id" uuid NOT NULL, "open_item_line_id" uuid NOT NULL, "booked_terms" jsonb NOT NULL, CONSTRAINT "PK_3a5757923e0c3e9cc5e808acf76" PRIMARY KEY ("entity_id", "entry_id", "invoice_id"))`);
    await queryRunner.query(`CREATE INDEX "invoice_severed_bookings_invoice_idx" ON "invoice_severed_bookings"  ("entity_id", "invoice_id") `);
    await queryRunner.query(`CREATE TABLE "bank_movement_severed_bookings" ("entity_id" uuid NOT NULL, "entry_id" uuid NOT NULL, "bank_movement_id" uuid NOT NULL, CONSTRAINT "PK_efa57614c7a500e94a880e7ba0a" PRIMARY KEY ("entity_id", "entry_id", "bank_movement_id"))`);
    await queryRunner.query(`CREATE INDEX "bank_movement_severed_bookings_movement_idx" ON "bank_movement_severed_bookings"  ("entity_id", "bank_movement_id") `);
    // What the single pointers kept moves to the history (the invoice's terms as they are now).
    await queryRunner.query(`INSERT INTO "invoice_severed_bookings" ("entity_id", "entry_id", "invoice_id", "open_item_line_id", "booked_terms")
      SELECT i.entity_id, i.severed_entry_id, i.id, i.severed_open_item_line_id,
             jsonb_build_object('documentKind', i.document_kind, 'documentNumber', i.document_number, 'issueDate', i.issue_date, 'partnerId', i.partner_id,
                                'currency', i.currency, 'exchangeRate', i.exchange_rate, 'netAmount', i.net_amount, 'exemptAmount', i.exempt_amount,
                                'taxAmount', i.tax_amount, 'totalAmount', i.total_amount, 'servicePeriodStart', i.service_period_start,
                                'servicePeriodEnd', i.service_period_end)
        FROM "invoices" i JOIN "ledger_entries" e ON e.entity_id = i.entity_id AND e.id = i.severed_entry_id
       WHERE i.severed_entry_id IS NOT NULL AND i.severed_open_item_line_id IS NOT NULL`);
    await queryRunner.query(`INSERT INTO "bank_movement_severed_bookings" ("entity_id", "entry_id", "bank_movement_id")
      SELECT m.entity_id, m.severed_entry_id, m.id FROM "bank_movements" m JOIN "ledger_entries" e ON e.entity_id = m.entity_id AND e.id = m.severed_entry_id
       WHERE m.severed_entry_id IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP COLUMN "severed_entry_id"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP COLUMN "severed_open_item_line_id"`);
    await queryRunner.query(`ALTER TABLE "bank_movements" DROP COLUMN "severed_entry_id"`);
    await queryRunner.query(`ALTER TABLE "invoice_severed_bookings" ADD CONSTRAINT "FK_f495d3e3659ebb0e8f6d903dcd5" FOREIGN KEY ("entity_id", "invoice_id") REFERENCES "invoices"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoice_severed_bookings" ADD CONSTRAINT "FK_395705093dc80b22db55fb5d4d4" FOREIGN KEY ("entity_id", "entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bank_movement_severed_bookings" ADD CONSTRAINT "FK_4f516568b5de90312515f43799f" FOREIGN KEY ("entity_id", "bank_movement_id") REFERENCES "bank_movements"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bank_movement_severed_bookings" ADD CONSTRAINT "FK_f62f9559ffc7050058531b4379b" FOREIGN KEY ("entity_id", "entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "bank_movement_severed_bookings" DROP CONSTRAINT "FK_f62f9559ffc7050058531b4379b"`);
    await queryRunner.query(`ALTER TABLE "bank_movement_severed_bookings" DROP CONSTRAINT "FK_4f516568b5de90312515f43799f"`);
    await queryRunner.query(`ALTER TABLE "invoice_severed_bookings" DROP CONSTRAINT "FK_395705093dc80b22db55fb5d4d4"`);
    await queryRunner.query(`ALTER TABLE "invoice_severed_bookings" DROP CONSTRAINT "FK_f495d3e3659ebb0e8f6d903dcd5"`);
    await queryRunner.query(`ALTER TABLE "bank_movements" ADD "severed_entry_id" uuid`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD "severed_open_item_line_id" uuid`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD "severed_entry_id" uuid`);
    await queryRunner.query(`UPDATE "invoices" i SET "severed_entry_id" = s.entry_id, "severed_open_item_line_id" = s.open_item_line_id
      FROM (SELECT DISTINCT ON (entity_id, invoice_id) * FROM "invoice_severed_bookings" ORDER BY entity_id, invoice_id, entry_id) s
     WHERE i.entity_id = s.entity_id AND i.id = s.invoice_id`);
    await queryRunner.query(`UPDATE "bank_movements" m SET "severed_entry_id" = s.entry_id
      FROM (SELECT DISTINCT ON (entity_id, bank_movement_id) * FROM "bank_movement_severed_bookings" ORDER BY entity_id, bank_movement_id, entry_id) s
     WHERE m.entity_id = s.entity_id AND m.id = s.bank_movement_id`);
    await queryRunner.query(`DROP INDEX "public"."bank_movement_severed_bookings_movement_idx"`);
    await queryRunner.query(`DROP TABLE "bank_movement_severed_bookings"`);
    await queryRunner.query(`DROP INDEX "public"."invoice_severed_bookings_invoice_idx"`);
    await queryRunner.query(`DROP TABLE "invoice_severed_bookings"`);
    await queryRunner.query(`CREATE INDEX "bank_movements_severed_entry_idx" ON "bank_movements" USING btree ("entity_id", "severed_entry_id") WHERE (severed_entry_id IS NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "invoices_severed_entry_idx" ON "invoices" USING btree ("entity_id", "severed_entry_id") WHERE (severed_entry_id IS NOT NULL)`);
  }
}
