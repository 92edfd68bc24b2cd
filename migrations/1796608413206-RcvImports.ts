import { MigrationInterface, QueryRunner } from 'typeorm';

export class RcvImports1796608413206 implements MigrationInterface {
  name = 'RcvImports1796608413206';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "rcv_imports" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "period" text NOT NULL, "direction" text NOT NULL, "row_count" integer NOT NULL, "sequence" BIGSERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "rcv_imports_period_check" CHECK ("period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'), CONSTRAINT "rcv_imports_direction_check" CHECK ("direction" IN ('sales', 'purchases')), CONSTRAINT "PK_47b2b6aded430bc7d76d58b9a65" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "rcv_imports_latest_idx" ON "rcv_imports"  ("entity_id", "period", "direction", "sequence") `);
    await queryRunner.query(`CREATE TABLE "rcv_import_rows" ("entity_id" uuid NOT NULL, "import_id" uuid NOT NULL, "line" integer NOT NULL, "dte_type" smallint NOT NULL, "folio" bigint NOT NULL, "partner_tax_id" text NOT NULL, "partner_name" text NOT NULL, "issue_date" date NOT NULL, "exempt_amount" bigint NOT NULL, "net_amount" bigint NOT NULL, "tax_amount" bigint NOT NULL, "total_amount" bigint NOT NULL, CONSTRAINT "rcv_import_rows_folio_check" CHECK ("folio" > 0), CONSTRAINT "PK_d49f4ff30e66021f94bbb5bf977" PRIMARY KEY ("entity_id", "import_id", "line"))`);
    await queryRunner.query(`ALTER TABLE "rcv_imports" ADD CONSTRAINT "rcv_imports_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "rcv_import_rows" ADD CONSTRAINT "FK_4f6d6bdd04e6d0cbc277c4e2496" FOREIGN KEY ("entity_id", "import_id") REFERENCES "rcv_imports"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "rcv_import_rows" DROP CONSTRAINT "FK_4f6d6bdd04e6d0cbc277c4e2496"`);
    await queryRunner.query(`ALTER TABLE "rcv_imports" DROP CONSTRAINT "rcv_imports_entity_fk"`);
    await queryRunner.query(`DROP TABLE "rcv_import_rows"`);
    await queryRunner.query(`DROP INDEX "public"."rcv_imports_latest_idx"`);
    await queryRunner.query(`DROP TABLE "rcv_imports"`);
  }
}
