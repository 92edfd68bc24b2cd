import { MigrationInterface, QueryRunner } from 'typeorm';

export class TodosComments1795703230869 implements MigrationInterface {
  name = 'TodosComments1795703230869';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "todos" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "text" text NOT NULL, "completed_at" TIMESTAMP WITH TIME ZONE, "invoice_id" uuid, "bank_movement_id" uuid, "ledger_entry_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "todos_text_check" CHECK (char_length("text") BETWEEN 1 AND 500), CONSTRAINT "todos_one_link_check" CHECK (num_nonnulls("invoice_id", "bank_movement_id", "ledger_entry_id") <= 1), CONSTRAINT "PK_a3cfcc30fe8598871755522300f" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "todos_ledger_entry_idx" ON "todos"  ("entity_id", "ledger_entry_id") WHERE "ledger_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "todos_bank_movement_idx" ON "todos"  ("entity_id", "bank_movement_id") WHERE "bank_movement_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "todos_invoice_idx" ON "todos"  ("entity_id", "invoice_id") WHERE "invoice_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "todos_created_idx" ON "todos"  ("entity_id", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "comments" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "host_kind" text NOT NULL, "host_id" uuid NOT NULL, "author_user_id" uuid NOT NULL, "text" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "comments_text_check" CHECK (char_length("text") BETWEEN 1 AND 2000), CONSTRAINT "comments_host_kind_check" CHECK ("host_kind" IN ('invoice', 'bank_movement', 'ledger_entry')), CONSTRAINT "PK_07bdf1c5043737e624b5c3f3ab6" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "comments_host_idx" ON "comments"  ("entity_id", "host_kind", "host_id", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "todos" ADD CONSTRAINT "todos_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "comments" ADD CONSTRAINT "comments_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "comments_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "todos" DROP CONSTRAINT "todos_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."comments_host_idx"`);
    await queryRunner.query(`DROP TABLE "comments"`);
    await queryRunner.query(`DROP INDEX "public"."todos_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."todos_invoice_idx"`);
    await queryRunner.query(`DROP INDEX "public"."todos_bank_movement_idx"`);
    await queryRunner.query(`DROP INDEX "public"."todos_ledger_entry_idx"`);
    await queryRunner.query(`DROP TABLE "todos"`);
  }
}
