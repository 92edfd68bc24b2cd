import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, D63a: a DTE's folio is an integer, leading zeros ignored. Folios imported before
 * with leading zeros lose them, so a later import of the same document finds it a duplicate;
 * where the same Entity already holds the folio without them (imported twice), the older row is
 * left as it was (nothing is deleted).
 */
export class DteFolioLeadingZeros1796607552089 implements MigrationInterface {
  name = 'DteFolioLeadingZeros1796607552089';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "dtes" d SET "folio" = ltrim(d."folio", '0')
       WHERE d."folio" ~ '^0+[0-9]*[1-9][0-9]*$'
         AND NOT EXISTS (
           SELECT 1 FROM "dtes" o
            WHERE o."entity_id" = d."entity_id" AND o."issuer_tax_id" = d."issuer_tax_id" AND o."dte_type" = d."dte_type"
              AND o."id" <> d."id" AND ltrim(o."folio", '0') = ltrim(d."folio", '0')
         )`);
  }

  async down(): Promise<void> {
    // The zeros are not kept: nothing to restore.
  }
}
