import { MigrationInterface, QueryRunner } from 'typeorm';

export class Banking1795702486988 implements MigrationInterface {
  name = 'Banking1795702486988';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "bank_accounts" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "kind" text NOT NULL, "ledger_account_id" uuid NOT NULL, "currency" text NOT NULL, "feed_bank_connection_id" uuid, "feed_provider_account_id" text, "feed_institution_name" text, "feed_last_synced_at" TIMESTAMP WITH TIME ZONE, "unreconciled_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "bank_accounts_feed_key" UNIQUE ("entity_id", "feed_bank_connection_id", "feed_provider_account_id"), CONSTRAINT "bank_accounts_unreconciled_check" CHECK ("unreconciled_count" >= 0), CONSTRAINT "bank_accounts_feed_check" CHECK (("feed_bank_connection_id" IS NULL) = ("feed_provider_account_id" IS NULL) AND ("feed_bank_connection_id" IS NULL) = ("feed_institution_name" IS NULL)), CONSTRAINT "bank_accounts_kind_check" CHECK ("kind" IN ('bank', 'card')), CONSTRAINT "PK_95e59039a01ff6a749c7ceecf01" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "bank_accounts_ledger_account_idx" ON "bank_accounts"  ("entity_id", "ledger_account_id") `);
    await queryRunner.query(`CREATE TABLE "bank_movements" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "bank_account_id" uuid NOT NULL, "movement_date" date NOT NULL, "description" text NOT NULL, "amount" bigint NOT NULL, "side" text NOT NULL, "reference" text, "counterparty_name" text, "counterparty_tax_id" text, "source" text NOT NULL, "provider_movement_id" text, "content_hash" text, "ledger_entry_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "bank_movements_content_key" UNIQUE ("entity_id", "bank_account_id", "content_hash"), CONSTRAINT "bank_movements_source_check" CHECK ("source" IN ('manual', 'import', 'feed')), CONSTRAINT "bank_movements_side_check" CHECK ("side" IN ('debit', 'credit')), CONSTRAINT "bank_movements_amount_check" CHECK ("amount" > 0), CONSTRAINT "PK_1673a5b8e351fd05586e2275d32" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "bank_movements_unbooked_idx" ON "bank_movements"  ("entity_id", "bank_account_id", "movement_date", "id") WHERE "ledger_entry_id" IS NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "bank_movements_entry_key" ON "bank_movements"  ("entity_id", "ledger_entry_id") WHERE "ledger_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "bank_movements_provider_key" ON "bank_movements"  ("entity_id", "bank_account_id", "provider_movement_id") WHERE "provider_movement_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "bank_movements_account_date_idx" ON "bank_movements"  ("entity_id", "bank_account_id", "movement_date", "id") `);
    await queryRunner.query(`ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bank_accounts" ADD CONSTRAINT "FK_6a2d55dd1dd5589c4772ad4a0c2" FOREIGN KEY ("entity_id", "ledger_account_id") REFERENCES "ledger_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bank_movements" ADD CONSTRAINT "FK_8b8bc16b48b64cec932e1354510" FOREIGN KEY ("entity_id", "bank_account_id") REFERENCES "bank_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    // bank_accounts.unreconciled_count: the movements without a booking entry, kept by
    // statement-level triggers (one update per statement, however many rows it wrote), so the
    // bank account list reads it in O(accounts) whatever the number of movements.
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count + n.count
          FROM (SELECT entity_id, bank_account_id, count(*)::int AS count FROM new_rows WHERE ledger_entry_id IS NULL GROUP BY 1, 2) n
         WHERE a.entity_id = n.entity_id AND a.id = n.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count - o.count
          FROM (SELECT entity_id, bank_account_id, count(*)::int AS count FROM old_rows WHERE ledger_entry_id IS NULL GROUP BY 1, 2) o
         WHERE a.entity_id = o.entity_id AND a.id = o.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION bank_movements_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count + d.delta
          FROM (SELECT entity_id, bank_account_id, sum(delta)::int AS delta FROM (
                  SELECT entity_id, bank_account_id, CASE WHEN ledger_entry_id IS NULL THEN 1 ELSE 0 END AS delta FROM new_rows
                  UNION ALL
                  SELECT entity_id, bank_account_id, CASE WHEN ledger_entry_id IS NULL THEN -1 ELSE 0 END FROM old_rows) c
                 GROUP BY 1, 2 HAVING sum(delta) <> 0) d
         WHERE a.entity_id = d.entity_id AND a.id = d.bank_account_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_inserted AFTER INSERT ON bank_movements REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_inserted()`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_deleted AFTER DELETE ON bank_movements REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_deleted()`);
    await queryRunner.query(`CREATE TRIGGER bank_movements_updated AFTER UPDATE ON bank_movements REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bank_movements_count_updated()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER bank_movements_updated ON bank_movements`);
    await queryRunner.query(`DROP TRIGGER bank_movements_deleted ON bank_movements`);
    await queryRunner.query(`DROP TRIGGER bank_movements_inserted ON bank_movements`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_updated()`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_deleted()`);
    await queryRunner.query(`DROP FUNCTION bank_movements_count_inserted()`);
    await queryRunner.query(`ALTER TABLE "bank_movements" DROP CONSTRAINT "FK_8b8bc16b48b64cec932e1354510"`);
    await queryRunner.query(`ALTER TABLE "bank_accounts" DROP CONSTRAINT "FK_6a2d55dd1dd5589c4772ad4a0c2"`);
    await queryRunner.query(`ALTER TABLE "bank_accounts" DROP CONSTRAINT "bank_accounts_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."bank_movements_account_date_idx"`);
    await queryRunner.query(`DROP INDEX "public"."bank_movements_provider_key"`);
    await queryRunner.query(`DROP INDEX "public"."bank_movements_entry_key"`);
    await queryRunner.query(`DROP INDEX "public"."bank_movements_unbooked_idx"`);
    await queryRunner.query(`DROP TABLE "bank_movements"`);
    await queryRunner.query(`DROP INDEX "public"."bank_accounts_ledger_account_idx"`);
    await queryRunner.query(`DROP TABLE "bank_accounts"`);
  }
}
