import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795334684983 implements MigrationInterface {
  name = 'Initial1795334684983';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_trail" ("id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "entity_id" uuid, "organization_id" uuid, "actor_user_id" uuid, "declared_actor" text, "credential" text, "api_key_id" uuid, "method" text NOT NULL, "path" text NOT NULL, "action" text NOT NULL, "resource_type" text, "resource_id" text, "request_id" text NOT NULL, "reason" text, CONSTRAINT "audit_trail_credential_check" CHECK ("credential" IN ('session', 'api_key')), CONSTRAINT "PK_91aade8e45ada93f7dc98ca7ced" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "audit_trail_organization_idx" ON "audit_trail"  ("organization_id", "occurred_at", "id") `);
    await queryRunner.query(`CREATE INDEX "audit_trail_entity_idx" ON "audit_trail"  ("entity_id", "occurred_at", "id") `);
    await queryRunner.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "role" text NOT NULL, "password_hash" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email")), CONSTRAINT "users_role_check" CHECK ("role" IN ('staff', 'client')), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await queryRunner.query(`CREATE TABLE "api_keys" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "name" text NOT NULL, "prefix" text NOT NULL, "secret_hash" text NOT NULL, "permissions" jsonb, "entity_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"  ("prefix") `);
    await queryRunner.query(`CREATE INDEX "api_keys_user_idx" ON "api_keys"  ("user_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "api_key_usage" ("api_key_id" uuid NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "request_count" integer NOT NULL, CONSTRAINT "PK_39acb05021cd7b5d4043411be2e" PRIMARY KEY ("api_key_id", "window_start"))`);
    await queryRunner.query(`CREATE TABLE "sign_in_failures" ("id" uuid NOT NULL, "email" text NOT NULL, "failed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_fa4e2048c06590424ef01bfd171" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures"  ("email", "failed_at") `);
    await queryRunner.query(`CREATE TABLE "set_password_tokens" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_hash" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_cf324bf3c85339c2b11a3a373be" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "set_password_tokens_token_hash_key" ON "set_password_tokens"  ("token_hash") `);
    await queryRunner.query(`CREATE TABLE "organizations" ("id" uuid NOT NULL, "name" text NOT NULL, "name_key" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "organizations_name_key_key" ON "organizations"  ("name_key") `);
    await queryRunner.query(`CREATE TABLE "memberships" ("organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "memberships_role_check" CHECK ("role" IN ('staff', 'client', 'viewer')), CONSTRAINT "PK_d43d9c8d18fcd49de0fa44bbd79" PRIMARY KEY ("organization_id", "user_id"))`);
    await queryRunner.query(`CREATE INDEX "memberships_user_idx" ON "memberships"  ("user_id") `);
    await queryRunner.query(`CREATE TABLE "entities" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "country" text NOT NULL, "tax_id" text NOT NULL, "currency" text NOT NULL, "ledger_lock_date" date, "accounting_policies" text, "parent_entity_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8640855ae82083455cbb806173d" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "entities_parent_idx" ON "entities"  ("parent_entity_id") `);
    await queryRunner.query(`CREATE INDEX "entities_organization_idx" ON "entities"  ("organization_id") `);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_api_key_fk" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "set_password_tokens" ADD CONSTRAINT "set_password_tokens_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entities" ADD CONSTRAINT "entities_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entities" ADD CONSTRAINT "entities_parent_fk" FOREIGN KEY ("parent_entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entities" DROP CONSTRAINT "entities_parent_fk"`);
    await queryRunner.query(`ALTER TABLE "entities" DROP CONSTRAINT "entities_organization_fk"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "memberships_user_fk"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "memberships_organization_fk"`);
    await queryRunner.query(`ALTER TABLE "set_password_tokens" DROP CONSTRAINT "set_password_tokens_user_fk"`);
    await queryRunner.query(`ALTER TABLE "api_key_usage" DROP CONSTRAINT "api_key_usage_api_key_fk"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_user_fk"`);
    await queryRunner.query(`DROP INDEX "public"."entities_organization_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_parent_idx"`);
    await queryRunner.query(`DROP TABLE "entities"`);
    await queryRunner.query(`DROP INDEX "public"."memberships_user_idx"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_name_key_key"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP INDEX "public"."set_password_tokens_token_hash_key"`);
    await queryRunner.query(`DROP TABLE "set_password_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."sign_in_failures_email_idx"`);
    await queryRunner.query(`DROP TABLE "sign_in_failures"`);
    await queryRunner.query(`DROP TABLE "api_key_usage"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_prefix_key"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_key"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."audit_trail_entity_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_trail_organization_idx"`);
    await queryRunner.query(`DROP TABLE "audit_trail"`);
  }
}
