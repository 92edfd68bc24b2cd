import { MigrationInterface, QueryRunner } from 'typeorm';

export class ProposalApplyClaim1795722737805 implements MigrationInterface {
  name = 'ProposalApplyClaim1795722737805';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_proposals" ADD "applying_key_id" uuid`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" ADD "applying_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" ADD CONSTRAINT "agent_proposals_applying_check" CHECK (("applying_key_id" IS NULL) = ("applying_since" IS NULL) AND ("applying_key_id" IS NULL OR "status" = 'pending'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_proposals" DROP CONSTRAINT "agent_proposals_applying_check"`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" DROP COLUMN "applying_since"`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" DROP COLUMN "applying_key_id"`);
  }
}
