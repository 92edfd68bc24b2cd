import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * D11a: sign-in failures are counted per (e-mail, client address) and per client address, so that
 * nobody can lock a known User out from elsewhere. Failures recorded before have no address and
 * are dropped (they lapse within 15 minutes anyway).
 */
export class SignInFailuresPerAddress1795500000017 implements MigrationInterface {
  name = 'SignInFailuresPerAddress1795500000017';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "sign_in_failures"`);
    await queryRunner.query(`DROP INDEX "public"."sign_in_failures_email_idx"`);
    await queryRunner.query(`ALTER TABLE "sign_in_failures" ADD "client_address" text NOT NULL`);
    await queryRunner.query(`CREATE INDEX "sign_in_failures_pair_idx" ON "sign_in_failures" ("email", "client_address", "failed_at") `);
    await queryRunner.query(`CREATE INDEX "sign_in_failures_address_idx" ON "sign_in_failures" ("client_address", "failed_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."sign_in_failures_address_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sign_in_failures_pair_idx"`);
    await queryRunner.query(`ALTER TABLE "sign_in_failures" DROP COLUMN "client_address"`);
    await queryRunner.query(`CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures" ("email", "failed_at") `);
  }
}
