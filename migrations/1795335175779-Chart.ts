import { MigrationInterface, QueryRunner } from 'typeorm';

export class Chart1795335175779 implements MigrationInterface {
  name = 'Chart1795335175779';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "ledger_account_groups" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "parent_group_id" uuid, "code_prefix" text NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ledger_account_groups_code_prefix_key" UNIQUE ("entity_id", "code_prefix"), CONSTRAINT "ledger_account_groups_type_check" CHECK ("type" IN ('asset', 'liability', 'equity', 'income', 'cost_of_goods_sold', 'operating_expense', 'other_income', 'other_expense')), CONSTRAINT "PK_12e27190747621c6c56727efada" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE TABLE "ledger_accounts" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "group_id" uuid, "code" text NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "tracking" text NOT NULL, "subtype" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "ledger_accounts_code_key" UNIQUE ("entity_id", "code"), CONSTRAINT "ledger_accounts_subtype_check" CHECK ("subtype" IS NULL OR "subtype" IN ('fixed_asset', 'receivable', 'unbilled_receivable', 'payable', 'internal_transfer', 'migration_clearing')), CONSTRAINT "ledger_accounts_tracking_check" CHECK ("tracking" IN ('balance', 'open_item')), CONSTRAINT "ledger_accounts_type_check" CHECK ("type" IN ('asset', 'liability', 'equity', 'income', 'cost_of_goods_sold', 'operating_expense', 'other_income', 'other_expense')), CONSTRAINT "PK_efdc7942dcbdc1aeefbc3efefaf" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "ledger_accounts_group_idx" ON "ledger_accounts"  ("entity_id", "group_id") `);
    await queryRunner.query(`CREATE TABLE "chart_initializations" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "template_key" text NOT NULL, "template_version" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d30c70f105045db5ccb32e7e6ae" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE TABLE "books" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "position" BIGSERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "books_name_key" UNIQUE ("entity_id", "name"), CONSTRAINT "PK_6a143eea8e49bedc1c0d37ef21b" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE TABLE "dimensions" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "dimensions_name_key" UNIQUE ("entity_id", "name"), CONSTRAINT "PK_c5a71d289c55ff857efe85bed6c" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE TABLE "dimension_values" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "dimension_id" uuid NOT NULL, "code" text NOT NULL, "name" text NOT NULL, "parent_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "dimension_values_dimension_id_key" UNIQUE ("entity_id", "dimension_id", "id"), CONSTRAINT "dimension_values_code_key" UNIQUE ("entity_id", "dimension_id", "code"), CONSTRAINT "PK_5891e2139b0d74d22a00e3f24a7" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`ALTER TABLE "ledger_account_groups" ADD CONSTRAINT "ledger_account_groups_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_account_groups" ADD CONSTRAINT "FK_2802b9f11aec5bc44064a0d2aae" FOREIGN KEY ("entity_id", "parent_group_id") REFERENCES "ledger_account_groups"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" ADD CONSTRAINT "FK_d0d0c7cb3a41e42f762f4eb6dcf" FOREIGN KEY ("entity_id", "group_id") REFERENCES "ledger_account_groups"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chart_initializations" ADD CONSTRAINT "chart_initializations_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "books" ADD CONSTRAINT "books_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dimensions" ADD CONSTRAINT "dimensions_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dimension_values" ADD CONSTRAINT "FK_30e76b62ec97bc564925d619f2e" FOREIGN KEY ("entity_id", "dimension_id") REFERENCES "dimensions"("entity_id","id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "dimension_values" ADD CONSTRAINT "FK_bf0ee16e6ff2ee105f0b83a2e7b" FOREIGN KEY ("entity_id", "parent_id", "dimension_id") REFERENCES "dimension_values"("entity_id","id","dimension_id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dimension_values" DROP CONSTRAINT "FK_bf0ee16e6ff2ee105f0b83a2e7b"`);
    await queryRunner.query(`ALTER TABLE "dimension_values" DROP CONSTRAINT "FK_30e76b62ec97bc564925d619f2e"`);
    await queryRunner.query(`ALTER TABLE "dimensions" DROP CONSTRAINT "dimensions_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "books" DROP CONSTRAINT "books_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "chart_initializations" DROP CONSTRAINT "chart_initializations_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" DROP CONSTRAINT "FK_d0d0c7cb3a41e42f762f4eb6dcf"`);
    await queryRunner.query(`ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_entity_fk"`);
    await queryRunner.query(`ALTER TABLE "ledger_account_groups" DROP CONSTRAINT "FK_2802b9f11aec5bc44064a0d2aae"`);
    await queryRunner.query(`ALTER TABLE "ledger_account_groups" DROP CONSTRAINT "ledger_account_groups_entity_fk"`);
    await queryRunner.query(`DROP TABLE "dimension_values"`);
    await queryRunner.query(`DROP TABLE "dimensions"`);
    await queryRunner.query(`DROP TABLE "books"`);
    await queryRunner.query(`DROP TABLE "chart_initializations"`);
    await queryRunner.query(`DROP INDEX "public"."ledger_accounts_group_idx"`);
    await queryRunner.query(`DROP TABLE "ledger_accounts"`);
    await queryRunner.query(`DROP TABLE "ledger_account_groups"`);
  }
}
