import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agent gateway (issue 23, D85-D89): conversations, messages, proposals and lease keys. */
export class AgentGateway1795500000023 implements MigrationInterface {
  name = 'AgentGateway1795500000023';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "agent_conversations" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "user_id" uuid NOT NULL, "title" text, "model" text, "turn_message_id" uuid, "turn_started_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9ee9072d913a60373385b294adf" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "agent_conversations_user_idx" ON "agent_conversations"  ("entity_id", "user_id", "updated_at", "id") `);
    await queryRunner.query(`CREATE TABLE "agent_messages" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "seq" integer NOT NULL, "role" text NOT NULL, "content" text, "tool_calls" jsonb, "tool_call_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "agent_messages_seq_key" UNIQUE ("entity_id", "conversation_id", "seq"), CONSTRAINT "agent_messages_role_check" CHECK ("role" IN ('user', 'assistant', 'tool')), CONSTRAINT "PK_4336ffc8d32977cec8f5870f717" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE TABLE "agent_proposals" ("entity_id" uuid NOT NULL, "id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "method" text NOT NULL, "path" text NOT NULL, "body" jsonb, "summary" text NOT NULL, "status" text NOT NULL, "response" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "decided_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "agent_proposals_status_check" CHECK ("status" IN ('pending', 'applied', 'failed', 'rejected')), CONSTRAINT "agent_proposals_method_check" CHECK ("method" IN ('POST', 'PUT', 'PATCH', 'DELETE')), CONSTRAINT "PK_6e8bb4c955d94ab95c755bf4930" PRIMARY KEY ("entity_id", "id"))`);
    await queryRunner.query(`CREATE INDEX "agent_proposals_conversation_idx" ON "agent_proposals"  ("entity_id", "conversation_id", "created_at", "id") `);
    await queryRunner.query(`CREATE TABLE "agent_lease_keys" ("entity_id" uuid NOT NULL, "api_key_id" uuid NOT NULL, "user_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0540c993dc9b6526205734f2850" PRIMARY KEY ("entity_id", "api_key_id"))`);
    await queryRunner.query(`CREATE INDEX "agent_lease_keys_user_idx" ON "agent_lease_keys"  ("user_id", "expires_at") `);
    await queryRunner.query(`ALTER TABLE "agent_conversations" ADD CONSTRAINT "agent_conversations_entity_fk" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_conversations" ADD CONSTRAINT "agent_conversations_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_messages" ADD CONSTRAINT "FK_d46e4c267275b4a0bbb0161da3d" FOREIGN KEY ("entity_id", "conversation_id") REFERENCES "agent_conversations"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" ADD CONSTRAINT "FK_d53de7f8875fcffb0519c229d3e" FOREIGN KEY ("entity_id", "conversation_id") REFERENCES "agent_conversations"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_lease_keys" ADD CONSTRAINT "FK_d7b4360faedd24430edc4e4f13a" FOREIGN KEY ("entity_id", "conversation_id") REFERENCES "agent_conversations"("entity_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_lease_keys" DROP CONSTRAINT "FK_d7b4360faedd24430edc4e4f13a"`);
    await queryRunner.query(`ALTER TABLE "agent_proposals" DROP CONSTRAINT "FK_d53de7f8875fcffb0519c229d3e"`);
    await queryRunner.query(`ALTER TABLE "agent_messages" DROP CONSTRAINT "FK_d46e4c267275b4a0bbb0161da3d"`);
    await queryRunner.query(`ALTER TABLE "agent_conversations" DROP CONSTRAINT "agent_conversations_user_fk"`);
    await queryRunner.query(`ALTER TABLE "agent_conversations" DROP CONSTRAINT "agent_conversations_entity_fk"`);
    await queryRunner.query(`DROP INDEX "public"."agent_lease_keys_user_idx"`);
    await queryRunner.query(`DROP TABLE "agent_lease_keys"`);
    await queryRunner.query(`DROP INDEX "public"."agent_proposals_conversation_idx"`);
    await queryRunner.query(`DROP TABLE "agent_proposals"`);
    await queryRunner.query(`DROP TABLE "agent_messages"`);
    await queryRunner.query(`DROP INDEX "public"."agent_conversations_user_idx"`);
    await queryRunner.query(`DROP TABLE "agent_conversations"`);
  }
}
