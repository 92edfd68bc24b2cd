import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: a confirmation claims its upload slot before it copies the uploaded object to the
 * attachment's key, so two confirmations never both copy (the loser's copy could carry bytes PUT
 * again after the winner's).
 */
export class AttachmentConfirmClaim1796607543192 implements MigrationInterface {
  name = 'AttachmentConfirmClaim1796607543192';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "attachments" ADD "confirm_claim" uuid`);
    await queryRunner.query(`ALTER TABLE "attachments" ADD "confirm_claimed_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "attachments" ADD CONSTRAINT "attachments_confirm_claim_check" CHECK (("confirm_claim" IS NULL) = ("confirm_claimed_until" IS NULL) AND ("confirm_claim" IS NULL OR "state" = 'pending'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "attachments" DROP CONSTRAINT "attachments_confirm_claim_check"`);
    await queryRunner.query(`ALTER TABLE "attachments" DROP COLUMN "confirm_claimed_until"`);
    await queryRunner.query(`ALTER TABLE "attachments" DROP COLUMN "confirm_claim"`);
  }
}
