import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `"occurred_at", "organization_id", "actor_user_id", "declared_actor", "credential", "api_key_id", "method", "path", "action", "resource_type", "resource_id", "request_id", "reason"`;

/**
 * D40 for the audit trail: the rows of an Entity in `entity_audit_trail`, keyed (entity_id, id)
 * like every Entity table (it distributes by entity_id on Citus unchanged); the rows that belong
 * to no Entity (Organizations, onboarding, sign-in, keys) in `global_audit_trail`. `audit_trail`
 * stays as a view of both, with the columns the table had.
 *
 * A write made outside an HTTP request (a job, the CLI) has no method, path or request id: its
 * actor is a declared system actor (`system:...`).
 */
export class AuditTrailByEntity1795512160016 implements MigrationInterface {
  name = 'AuditTrailByEntity1795512160016';

  async up(queryRunner: QueryRunner): Promise<void> {
    const system = `CHECK (("method" IS NULL) = ("request_id" IS NULL) AND ("path" IS NULL) = ("request_id" IS NULL) AND ("request_id" IS NOT NULL OR "declared_actor" LIKE 'system:%'))`;
    await queryRunner.query(
      `CREATE TABLE "entity_audit_trail" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "organization_id" uuid, "actor_user_id" uuid, "declared_actor" text, "credential" text, "api_key_id" uuid, "method" text, "path" text, "action" text NOT NULL, "resource_type" text, "resource_id" text, "request_id" text, "reason" text,
        CONSTRAINT "entity_audit_trail_credential_check" CHECK ("credential" IN ('session', 'api_key')),
        CONSTRAINT "entity_audit_trail_system_check" ${system},
        CONSTRAINT "entity_audit_trail_pkey" PRIMARY KEY ("entity_id", "id"))`,
    );
    await queryRunner.query(`CREATE INDEX "entity_audit_trail_time_idx" ON "entity_audit_trail" ("entity_id", "occurred_at", "id") `);
    await queryRunner.query(`CREATE INDEX "entity_audit_trail_organization_idx" ON "entity_audit_trail" ("organization_id", "occurred_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "global_audit_trail" ("id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "organization_id" uuid, "actor_user_id" uuid, "declared_actor" text, "credential" text, "api_key_id" uuid, "method" text, "path" text, "action" text NOT NULL, "resource_type" text, "resource_id" text, "request_id" text, "reason" text,
        CONSTRAINT "global_audit_trail_credential_check" CHECK ("credential" IN ('session', 'api_key')),
        CONSTRAINT "global_audit_trail_system_check" ${system},
        CONSTRAINT "global_audit_trail_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "global_audit_trail_organization_idx" ON "global_audit_trail" ("organization_id", "occurred_at", "id") `);
    await queryRunner.query(`INSERT INTO "entity_audit_trail" ("entity_id", "id", ${COLUMNS}) SELECT "entity_id", "id", ${COLUMNS} FROM "audit_trail" WHERE "entity_id" IS NOT NULL`);
    await queryRunner.query(`INSERT INTO "global_audit_trail" ("id", ${COLUMNS}) SELECT "id", ${COLUMNS} FROM "audit_trail" WHERE "entity_id" IS NULL`);
    await queryRunner.query(`DROP TABLE "audit_trail"`);
    await queryRunner.query(
      `CREATE VIEW "audit_trail" AS
         SELECT "id", "occurred_at", "entity_id", "organization_id", "actor_user_id", "declared_actor", "credential", "api_key_id", "method", "path", "action", "resource_type", "resource_id", "request_id", "reason" FROM "entity_audit_trail"
         UNION ALL
         SELECT "id", "occurred_at", NULL::uuid, "organization_id", "actor_user_id", "declared_actor", "credential", "api_key_id", "method", "path", "action", "resource_type", "resource_id", "request_id", "reason" FROM "global_audit_trail"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "audit_trail"`);
    await queryRunner.query(
      `CREATE TABLE "audit_trail" ("id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "entity_id" uuid, "organization_id" uuid, "actor_user_id" uuid, "declared_actor" text, "credential" text, "api_key_id" uuid, "method" text NOT NULL, "path" text NOT NULL, "action" text NOT NULL, "resource_type" text, "resource_id" text, "request_id" text NOT NULL, "reason" text, CONSTRAINT "audit_trail_credential_check" CHECK ("credential" IN ('session', 'api_key')), CONSTRAINT "PK_91aade8e45ada93f7dc98ca7ced" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "audit_trail_organization_idx" ON "audit_trail"  ("organization_id", "occurred_at", "id") `);
    await queryRunner.query(`CREATE INDEX "audit_trail_entity_idx" ON "audit_trail"  ("entity_id", "occurred_at", "id") `);
    await queryRunner.query(`INSERT INTO "audit_trail" ("id", "entity_id", ${COLUMNS}) SELECT "id", "entity_id", ${COLUMNS} FROM "entity_audit_trail" WHERE "request_id" IS NOT NULL`);
    await queryRunner.query(`INSERT INTO "audit_trail" ("id", "entity_id", ${COLUMNS}) SELECT "id", NULL, ${COLUMNS} FROM "global_audit_trail" WHERE "request_id" IS NOT NULL`);
    await queryRunner.query(`DROP TABLE "global_audit_trail"`);
    await queryRunner.query(`DROP TABLE "entity_audit_trail"`);
  }
}
