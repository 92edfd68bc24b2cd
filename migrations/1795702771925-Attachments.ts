import { MigrationInterface, QueryRunner } from 'typeorm';

export class Attachments1795702771925 implements MigrationInterface {
  name = 'Attachments1795702771925';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "attachments" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "host_kind" text NOT NULL, "host_id" uuid NOT NULL, "object_key" text NOT NULL, "filename" text NOT NULL, "content_type" text NOT NULL, "byte_size" integer NOT NULL, "state" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "attachments_byte_size_check" CHECK ("byte_size" BETWEEN 1 AND 26214400), CONSTRAINT "attachments_state_check" CHECK ("state" IN ('pending', 'confirmed', 'discarded')), CONSTRAINT "attachments_host_kind_check" CHECK ("host_kind" IN ('invoice', 'bank_movement', 'ledger_entry')), CONSTRAINT "PK_a7a08e7e7e0d6a7e5d694fd15b1" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "attachments_sweep_idx" ON "attachments"  ("expires_at") WHERE "state" <> 'confirmed'`);
    await queryRunner.query(`CREATE INDEX "attachments_host_idx" ON "attachments"  ("entity_id", "host_kind", "host_id", "created_at", "id") `);
    await queryRunner.query(`ALTER TABLE "attachments" ADD CONSTRAINT "attachments_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "attachments" DROP CONSTRAINT "attachments_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."attachments_host_idx"`);
    await queryRunner.query(`DROP INDEX "public"."attachments_sweep_idx"`);
    await queryRunner.query(`DROP TABLE "attachments"`);
  }
}
