import { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1795702463288 implements MigrationInterface {
  name = 'Invoices1795702463288';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "dtes" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "dte_type" smallint NOT NULL, "folio" text NOT NULL, "issuer_tax_id" text NOT NULL, "issuer_name" text NOT NULL, "receiver_tax_id" text NOT NULL, "receiver_name" text, "issue_date" date NOT NULL, "net_amount" bigint NOT NULL, "exempt_amount" bigint NOT NULL, "tax_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, "direction" text NOT NULL, "references" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "dtes_natural_key" UNIQUE ("entity_id", "issuer_tax_id", "dte_type", "folio"), CONSTRAINT "dtes_amounts_check" CHECK ("net_amount" >= 0 AND "exempt_amount" >= 0 AND "tax_amount" >= 0 AND "total_amount" >= 0), CONSTRAINT "dtes_direction_check" CHECK ("direction" IN ('ar', 'ap')), CONSTRAINT "PK_4f4ab3d5e18064b15e520263e26" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "dtes_issue_date_idx" ON "dtes"  ("entity_id", "issue_date", "id") `);
    await queryRunner.query(`CREATE TABLE "invoices" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "direction" text NOT NULL, "document_kind" text NOT NULL, "document_number" text NOT NULL, "issue_date" date NOT NULL, "due_date" date, "partner_id" uuid NOT NULL, "currency" text NOT NULL, "exchange_rate" numeric(24,12), "net_amount" bigint NOT NULL, "exempt_amount" bigint NOT NULL, "tax_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, "service_period_start" date, "service_period_end" date, "description" text, "book_status" text NOT NULL, "ledger_entry_id" uuid, "open_item_line_id" uuid, "dte_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "invoices_dte_key" UNIQUE ("entity_id", "dte_id"), CONSTRAINT "invoices_document_number_key" UNIQUE ("entity_id", "direction", "document_kind", "partner_id", "document_number"), CONSTRAINT "invoices_amounts_check" CHECK ("net_amount" >= 0 AND "exempt_amount" >= 0 AND "tax_amount" >= 0 AND "total_amount" = "net_amount" + "exempt_amount" + "tax_amount"), CONSTRAINT "invoices_booked_check" CHECK (("book_status" = 'booked') = ("ledger_entry_id" IS NOT NULL)), CONSTRAINT "invoices_book_status_check" CHECK ("book_status" IN ('unbooked', 'booked')), CONSTRAINT "invoices_document_kind_check" CHECK ("document_kind" IN ('invoice', 'exempt_invoice', 'receipt', 'exempt_receipt', 'purchase_invoice', 'debit_note', 'credit_note', 'export_invoice', 'export_debit_note', 'export_credit_note', 'other')), CONSTRAINT "invoices_direction_check" CHECK ("direction" IN ('ar', 'ap')), CONSTRAINT "PK_1105f999d9ff3ab69a26430a22d" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "invoices_open_item_line_idx" ON "invoices"  ("entity_id", "open_item_line_id") WHERE "open_item_line_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "invoices_entry_idx" ON "invoices"  ("entity_id", "ledger_entry_id") WHERE "ledger_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "invoices_partner_idx" ON "invoices"  ("entity_id", "partner_id", "issue_date", "id") `);
    await queryRunner.query(`CREATE INDEX "invoices_issue_date_idx" ON "invoices"  ("entity_id", "issue_date", "id") `);
    await queryRunner.query(`ALTER TABLE "dtes" ADD CONSTRAINT "dtes_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD CONSTRAINT "invoices_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD CONSTRAINT "FK_b5370280b7b665f0624429f3b7e" FOREIGN KEY ("entity_id", "partner_id") REFERENCES "partners"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD CONSTRAINT "FK_1c50b4014fabf4035b22f624f1e" FOREIGN KEY ("entity_id", "ledger_entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD CONSTRAINT "FK_29162ebe6a7fba0d854c2d54037" FOREIGN KEY ("entity_id", "open_item_line_id") REFERENCES "ledger_lines"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invoices" ADD CONSTRAINT "FK_4408dc5676ea200c7ec223bae2a" FOREIGN KEY ("entity_id", "dte_id") REFERENCES "dtes"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoices" DROP CONSTRAINT "FK_4408dc5676ea200c7ec223bae2a"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP CONSTRAINT "FK_29162ebe6a7fba0d854c2d54037"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP CONSTRAINT "FK_1c50b4014fabf4035b22f624f1e"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP CONSTRAINT "FK_b5370280b7b665f0624429f3b7e"`);
    await queryRunner.query(`ALTER TABLE "invoices" DROP CONSTRAINT "invoices_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "dtes" DROP CONSTRAINT "dtes_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_issue_date_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_partner_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_entry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."invoices_open_item_line_idx"`);
    await queryRunner.query(`DROP TABLE "invoices"`);
    await queryRunner.query(`DROP INDEX "public"."dtes_issue_date_idx"`);
    await queryRunner.query(`DROP TABLE "dtes"`);
  }
}
