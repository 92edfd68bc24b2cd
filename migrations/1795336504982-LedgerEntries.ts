import { MigrationInterface, QueryRunner } from 'typeorm';

export class LedgerEntries1795336504982 implements MigrationInterface {
  name = 'LedgerEntries1795336504982';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "ledger_entries" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "book_id" uuid, "entry_date" date NOT NULL, "memo" text NOT NULL, "notes" text, "status" text NOT NULL, "source" text NOT NULL, "reversal_of_entry_id" uuid, "reversed_by_entry_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ledger_entries_source_check" CHECK ("source" IN ('manual', 'scheduled', 'invoice', 'bank_movement', 'reversal')), CONSTRAINT "ledger_entries_status_check" CHECK ("status" IN ('active', 'reversed', 'deleted', 'cancelled', 'scheduled')), CONSTRAINT "PK_8a71fcd23fac14e7c8839a78ff6" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "ledger_entries_scheduled_idx" ON "ledger_entries"  ("entity_id", "entry_date") WHERE "status" = 'scheduled'`);
    await queryRunner.query(`CREATE INDEX "ledger_entries_date_idx" ON "ledger_entries"  ("entity_id", "entry_date", "id") `);
    await queryRunner.query(`CREATE TABLE "ledger_lines" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "entry_id" uuid NOT NULL, "line_no" smallint NOT NULL, "side" text NOT NULL, "account_id" uuid NOT NULL, "amount" bigint NOT NULL, "description" text, "partner_id" uuid, "transaction_currency" text, "transaction_amount" bigint, "exchange_rate" numeric(24,12), "is_open_item" boolean NOT NULL, "allocated_amount" bigint NOT NULL DEFAULT '0', "book_id" uuid, "entry_date" date NOT NULL, "status" text NOT NULL, CONSTRAINT "ledger_lines_transaction_check" CHECK (("transaction_currency" IS NULL) = ("transaction_amount" IS NULL) AND ("transaction_amount" IS NULL) = ("exchange_rate" IS NULL)), CONSTRAINT "ledger_lines_status_check" CHECK ("status" IN ('active', 'reversed', 'deleted', 'cancelled', 'scheduled')), CONSTRAINT "ledger_lines_allocated_check" CHECK ("allocated_amount" >= 0 AND "allocated_amount" <= "amount"), CONSTRAINT "ledger_lines_amount_check" CHECK ("amount" > 0), CONSTRAINT "ledger_lines_side_check" CHECK ("side" IN ('debit', 'credit')), CONSTRAINT "PK_a6c534bfea847212ac0dd0b99ea" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_open_items_idx" ON "ledger_lines"  ("entity_id", "account_id", "entry_date", "id") WHERE "is_open_item" AND "status" IN ('active', 'reversed') AND "allocated_amount" < "amount"`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_journal_idx" ON "ledger_lines"  ("entity_id", "entry_date", "entry_id", "id") `);
    await queryRunner.query(`CREATE INDEX "ledger_lines_partner_idx" ON "ledger_lines"  ("entity_id", "partner_id", "entry_date", "id") WHERE "partner_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "ledger_lines_account_idx" ON "ledger_lines"  ("entity_id", "account_id", "entry_date", "entry_id", "id") `);
    await queryRunner.query(`CREATE INDEX "ledger_lines_entry_idx" ON "ledger_lines"  ("entity_id", "entry_id", "line_no") `);
    await queryRunner.query(`CREATE TABLE "ledger_line_dimension_values" ("entity_id" uuid NOT NULL, "line_id" uuid NOT NULL, "dimension_id" uuid NOT NULL, "dimension_value_id" uuid NOT NULL, CONSTRAINT "PK_254a66873f68a069cc24fe6e0cc" PRIMARY KEY ("entity_id", "line_id", "dimension_id"))`);
    await queryRunner.query(`CREATE INDEX "ledger_line_dimension_values_value_idx" ON "ledger_line_dimension_values"  ("entity_id", "dimension_value_id") `);
    await queryRunner.query(`CREATE TABLE "reconciliation_allocations" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "debit_line_id" uuid NOT NULL, "credit_line_id" uuid NOT NULL, "account_id" uuid NOT NULL, "amount" bigint NOT NULL, "kind" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "reconciliation_allocations_kind_check" CHECK ("kind" IN ('manual', 'reversal', 'match')), CONSTRAINT "reconciliation_allocations_lines_check" CHECK ("debit_line_id" <> "credit_line_id"), CONSTRAINT "reconciliation_allocations_amount_check" CHECK ("amount" > 0), CONSTRAINT "PK_a05e973a9c7afd8f382c6eaf16c" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "reconciliation_allocations_credit_idx" ON "reconciliation_allocations"  ("entity_id", "credit_line_id") `);
    await queryRunner.query(`CREATE INDEX "reconciliation_allocations_debit_idx" ON "reconciliation_allocations"  ("entity_id", "debit_line_id") `);
    await queryRunner.query(`ALTER TABLE "ledger_entries" ADD CONSTRAINT "FK_1a74b12b92f9f7fa9c3c056b582" FOREIGN KEY ("entity_id", "book_id") REFERENCES "books"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" ADD CONSTRAINT "FK_f16b5c6cd503e24b4a3b291e3c4" FOREIGN KEY ("entity_id", "reversal_of_entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" ADD CONSTRAINT "FK_98b7dc1ed52f2b7be0a2a66828b" FOREIGN KEY ("entity_id", "entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" ADD CONSTRAINT "FK_84b9d2e59fce425f4ce21d49342" FOREIGN KEY ("entity_id", "account_id") REFERENCES "ledger_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" ADD CONSTRAINT "FK_8160520456ad14c6abb7d891326" FOREIGN KEY ("entity_id", "partner_id") REFERENCES "partners"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_line_dimension_values" ADD CONSTRAINT "FK_5f00a7cb86b7c0838601a45adce" FOREIGN KEY ("entity_id", "line_id") REFERENCES "ledger_lines"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_line_dimension_values" ADD CONSTRAINT "FK_e6d8b0d4f58a456a3da649030b6" FOREIGN KEY ("entity_id", "dimension_value_id", "dimension_id") REFERENCES "dimension_values"("entity_id","id","dimension_id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" ADD CONSTRAINT "FK_e9dbe98a2b9816b10f839a39a42" FOREIGN KEY ("entity_id", "debit_line_id") REFERENCES "ledger_lines"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" ADD CONSTRAINT "FK_853c56273d65cdbd2891b08056c" FOREIGN KEY ("entity_id", "credit_line_id") REFERENCES "ledger_lines"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" ADD CONSTRAINT "FK_e1513096638ef27a8dc32672ad1" FOREIGN KEY ("entity_id", "account_id") REFERENCES "ledger_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" DROP CONSTRAINT "FK_e1513096638ef27a8dc32672ad1"`);
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" DROP CONSTRAINT "FK_853c56273d65cdbd2891b08056c"`);
    await queryRunner.query(`ALTER TABLE "reconciliation_allocations" DROP CONSTRAINT "FK_e9dbe98a2b9816b10f839a39a42"`);
    await queryRunner.query(`ALTER TABLE "ledger_line_dimension_values" DROP CONSTRAINT "FK_e6d8b0d4f58a456a3da649030b6"`);
    await queryRunner.query(`ALTER TABLE "ledger_line_dimension_values" DROP CONSTRAINT "FK_5f00a7cb86b7c0838601a45adce"`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" DROP CONSTRAINT "FK_8160520456ad14c6abb7d891326"`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" DROP CONSTRAINT "FK_84b9d2e59fce425f4ce21d49342"`);
    await queryRunner.query(`ALTER TABLE "ledger_lines" DROP CONSTRAINT "FK_98b7dc1ed52f2b7be0a2a66828b"`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" DROP CONSTRAINT "FK_f16b5c6cd503e24b4a3b291e3c4"`);
    await queryRunner.query(`ALTER TABLE "ledger_entries" DROP CONSTRAINT "FK_1a74b12b92f9f7fa9c3c056b582"`);
    await queryRunner.query(`DROP INDEX "public"."reconciliation_allocations_debit_idx"`);
    await queryRunner.query(`DROP INDEX "public"."reconciliation_allocations_credit_idx"`);
    await queryRunner.query(`DROP TABLE "reconciliation_allocations"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_line_dimension_values_value_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_line_dimension_values"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_entry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_account_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_partner_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_journal_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_lines_open_items_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_lines"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_entries_date_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_entries_scheduled_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_entries"`);
  }
}
