import { MigrationInterface, QueryRunner } from 'typeorm';

export class Partners1795335449984 implements MigrationInterface {
  name = 'Partners1795335449984';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "partners" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "country" text NOT NULL, "tax_id" text NOT NULL, "default_purchase_account_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "partners_tax_id_key" UNIQUE ("entity_id", "tax_id"), CONSTRAINT "partners_type_check" CHECK ("type" IN ('company', 'individual')), CONSTRAINT "PK_2edb1131879aa86f61a56015e12" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "partners_name_idx" ON "partners"  ("entity_id", "name", "id") `);
    await queryRunner.query(`ALTER TABLE "partners" ADD CONSTRAINT "partners_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "partners" ADD CONSTRAINT "FK_c1d01be4c8b491182b6ab08c738" FOREIGN KEY ("entity_id", "default_purchase_account_id") REFERENCES "ledger_accounts"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" DROP CONSTRAINT "FK_c1d01be4c8b491182b6ab08c738"`);
    await queryRunner.query(`ALTER TABLE "partners" DROP CONSTRAINT "partners_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."partners_name_idx"`);
    await queryRunner.query(`DROP TABLE "partners"`);
  }
}
