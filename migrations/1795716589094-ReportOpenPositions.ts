import { MigrationInterface, QueryRunner } from 'typeorm';

/** Backfill (issue 22), also run by the dashboards bench seed: the open amounts of the booked-invoices read model. */
export const REPORT_OPEN_POSITIONS_BACKFILL = `INSERT INTO "report_open_positions" ("entity_id", "book_key", "direction", "due_on", "open_amount")
  SELECT entity_id, book_key, direction, coalesce(due_date, 'infinity'::date),
         sum(CASE receivable_side WHEN 'debit' THEN receivable_amount - settled_amount ELSE settled_amount - receivable_amount END)
    FROM report_booked_invoices GROUP BY entity_id, book_key, direction, coalesce(due_date, 'infinity'::date)
  ON CONFLICT DO NOTHING`;

export class ReportOpenPositions1795716589094 implements MigrationInterface {
  name = 'ReportOpenPositions1795716589094';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "report_open_positions" ("entity_id" uuid NOT NULL, "book_key" uuid NOT NULL, "direction" text NOT NULL, "due_on" date NOT NULL, "open_amount" bigint NOT NULL, CONSTRAINT "report_open_positions_direction_check" CHECK ("direction" IN ('ar', 'ap')), CONSTRAINT "PK_15020a6a82b5b306bb528e549ff" PRIMARY KEY ("entity_id", "book_key", "direction", "due_on"))`);
    await queryRunner.query(REPORT_OPEN_POSITIONS_BACKFILL);
    await queryRunner.query(`ALTER TABLE "report_open_positions" ADD CONSTRAINT "report_open_positions_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "report_open_positions" DROP CONSTRAINT "report_open_positions_entity_fk"`);
    await queryRunner.query(`DROP TABLE "report_open_positions"`);
  }
}
