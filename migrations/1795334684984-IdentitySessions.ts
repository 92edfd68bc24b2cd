import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand: what TypeORM entities cannot describe. The session table of
 * connect-pg-simple (with an index to end every session of one User), and the D14 rate-limit
 * function that admits or refuses one API-key request atomically.
 */
export class IdentitySessions1795334684984 implements MigrationInterface {
  name = 'IdentitySessions1795334684984';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "user_sessions" (
        "sid" varchar NOT NULL,
        "sess" json NOT NULL,
        "expire" timestamp(6) NOT NULL,
        CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("sid")
      )`);
    await queryRunner.query(`CREATE INDEX "user_sessions_expire_idx" ON "user_sessions" ("expire")`);
    await queryRunner.query(`CREATE INDEX "user_sessions_user_idx" ON "user_sessions" ((sess->>'userId'))`);
    await queryRunner.query(`
      CREATE FUNCTION consume_api_key_request(p_api_key_id uuid, p_limit integer,
                                              OUT allowed boolean, OUT retry_after_seconds integer)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_now timestamptz := clock_timestamp();
        v_minute timestamptz := date_trunc('minute', clock_timestamp());
        v_used bigint;
        v_oldest timestamptz;
        v_new_bucket boolean;
      BEGIN
        -- Requests of one key queue here, so concurrent requests cannot all see room for one more.
        PERFORM 1 FROM api_keys WHERE id = p_api_key_id FOR UPDATE;
        SELECT coalesce(sum(request_count), 0), min(window_start) INTO v_used, v_oldest
          FROM api_key_usage
         WHERE api_key_id = p_api_key_id AND window_start > v_minute - interval '1 hour';
        IF v_used >= p_limit THEN
          allowed := false;
          retry_after_seconds := greatest(1, ceil(extract(epoch FROM (v_oldest + interval '1 hour' - v_now)))::integer);
          RETURN;
        END IF;
        INSERT INTO api_key_usage (api_key_id, window_start, request_count)
             VALUES (p_api_key_id, v_minute, 1)
        ON CONFLICT (api_key_id, window_start)
          DO UPDATE SET request_count = api_key_usage.request_count + 1
        RETURNING (xmax = 0) INTO v_new_bucket;
        IF v_new_bucket THEN
          DELETE FROM api_key_usage WHERE api_key_id = p_api_key_id AND window_start <= v_minute - interval '1 hour';
        END IF;
        allowed := true;
        retry_after_seconds := 0;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION consume_api_key_request(uuid, integer)`);
    await queryRunner.query(`DROP TABLE "user_sessions"`);
  }
}
