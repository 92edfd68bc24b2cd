import { MigrationInterface, QueryRunner } from 'typeorm';

export class BankFeeds1795705307251 implements MigrationInterface {
  name = 'BankFeeds1795705307251';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "bank_connections" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "provider" text NOT NULL, "institution_name" text NOT NULL, "holder_name" text NOT NULL, "status" text NOT NULL, "last_error" text, "link_token_ciphertext" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "bank_connections_status_check" CHECK ("status" IN ('active', 'login_required', 'error')), CONSTRAINT "bank_connections_provider_check" CHECK ("provider" IN ('fintoc', 'sandbox')), CONSTRAINT "PK_0753fbb7fa5f01afbdf28e73fe8" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`ALTER TABLE "bank_accounts" ADD CONSTRAINT "FK_b112cab4f462e11bd598e81f67e" FOREIGN KEY ("entity_id", "feed_bank_connection_id") REFERENCES "bank_connections"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "bank_connections" ADD CONSTRAINT "bank_connections_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "bank_connections" DROP CONSTRAINT "bank_connections_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "bank_accounts" DROP CONSTRAINT "FK_b112cab4f462e11bd598e81f67e"`);
    await queryRunner.query(`DROP TABLE "bank_connections"`);
  }
}
