import { MigrationInterface, QueryRunner } from 'typeorm';

export class OpenPositionSlots1795718402037 implements MigrationInterface {
  name = 'OpenPositionSlots1795718402037';

  // entity_id leads the key (D40), as every Entity table's.
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "report_open_positions" ADD "slot" smallint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "report_open_positions" DROP CONSTRAINT "PK_15020a6a82b5b306bb528e549ff"`);
    await queryRunner.query(`ALTER TABLE "report_open_positions" ADD CONSTRAINT "PK_7507ecb36824c155e6519bd4fa2" PRIMARY KEY ("entity_id", "book_key", "direction", "due_on", "slot")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "report_open_positions" DROP CONSTRAINT "PK_7507ecb36824c155e6519bd4fa2"`);
    await queryRunner.query(`ALTER TABLE "report_open_positions" ADD CONSTRAINT "PK_15020a6a82b5b306bb528e549ff" PRIMARY KEY ("entity_id", "book_key", "direction", "due_on")`);
    await queryRunner.query(`ALTER TABLE "report_open_positions" DROP COLUMN "slot"`);
  }
}
