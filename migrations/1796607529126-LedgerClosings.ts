import { MigrationInterface, QueryRunner } from 'typeorm';

/** D90 year-end closings (issue 35). The `closing` entry source needs no change here: issue 32 dropped the source check. */
export class LedgerClosings1796607529126 implements MigrationInterface {
  name = 'LedgerClosings1796607529126';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "ledger_closings" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "book_id" uuid, "exercise_start" date NOT NULL, "exercise_end" date NOT NULL, "retained_earnings_account_id" uuid NOT NULL, "entry_id" uuid, "result" bigint NOT NULL, "status" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ledger_closings_exercise_check" CHECK ("exercise_start" <= "exercise_end"), CONSTRAINT "ledger_closings_status_check" CHECK ("status" IN ('active', 'reopened')), CONSTRAINT "PK_dd3ad4237a99efef88194e1a293" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "ledger_closings_entry_idx" ON "ledger_closings"  ("entity_id", "entry_id") `);
    await queryRunner.query(`CREATE INDEX "ledger_closings_book_end_idx" ON "ledger_closings"  ("entity_id", "book_id", "exercise_end") `);
    await queryRunner.query(`ALTER TABLE "ledger_closings" ADD CONSTRAINT "ledger_closings_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_closings" ADD CONSTRAINT "FK_784a2d0aa0d5e7940bf19e7b483" FOREIGN KEY ("entity_id", "book_id") REFERENCES "books"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_closings" ADD CONSTRAINT "FK_e17b594549786481655cf7f704d" FOREIGN KEY ("entity_id", "entry_id") REFERENCES "ledger_entries"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ledger_closings" DROP CONSTRAINT "FK_e17b594549786481655cf7f704d"`);
    await queryRunner.query(`ALTER TABLE "ledger_closings" DROP CONSTRAINT "FK_784a2d0aa0d5e7940bf19e7b483"`);
    await queryRunner.query(`ALTER TABLE "ledger_closings" DROP CONSTRAINT "ledger_closings_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_closings_book_end_idx"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_closings_entry_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_closings"`);
  }
}
