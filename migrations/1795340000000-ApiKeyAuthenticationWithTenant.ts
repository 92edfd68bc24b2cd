import { MigrationInterface, QueryRunner } from 'typeorm';
import { AUTHENTICATE_API_KEY_V1 } from './1795337000000-ApiKeyAuthentication';

/**
 * Written by hand. The key request's hot path in one call: authenticate the key, count it against
 * its rate limit (D14) and, when the route names an Entity, read the tenant guard's scope for it
 * (the Entity's Organization and the key owner's Membership role there).
 *
 * The key row is locked while counting, so concurrent requests of one key cannot all see room for
 * one more. The counting transaction commits without waiting for its WAL flush
 * (synchronous_commit off for this transaction only): the lock is then held for microseconds
 * rather than a disk flush, and a crash can forget at most the last fraction of a second of
 * counts, which a rate limit may lose. Every book-keeping write keeps the durable default.
 */
export class ApiKeyAuthenticationWithTenant1795340000000 implements MigrationInterface {
  name = 'ApiKeyAuthenticationWithTenant1795340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION authenticate_api_key(text, text, integer, timestamptz)`);
    await queryRunner.query(`
      CREATE FUNCTION authenticate_api_key(p_prefix text, p_secret_hash text, p_limit integer, p_now timestamptz, p_entity_id uuid)
      RETURNS TABLE (api_key_id uuid, user_id uuid, permissions jsonb, entity_id uuid, email text, name text, role text,
                     allowed boolean, retry_after_seconds integer,
                     tenant_found boolean, tenant_organization_id uuid, tenant_membership_role text)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        v_key api_keys%ROWTYPE;
        v_minute timestamptz := date_trunc('minute', clock_timestamp());
        v_used bigint;
        v_oldest timestamptz;
        v_new_bucket boolean;
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        SELECT * INTO v_key FROM api_keys k
         WHERE k.prefix = p_prefix AND k.secret_hash = p_secret_hash AND k.revoked_at IS NULL
           AND (k.expires_at IS NULL OR k.expires_at > p_now)
         FOR UPDATE;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        IF v_key.last_used_at IS NULL OR v_key.last_used_at < p_now - interval '1 minute' THEN
          UPDATE api_keys SET last_used_at = p_now WHERE id = v_key.id;
        END IF;
        SELECT coalesce(sum(u.request_count), 0), min(u.window_start) INTO v_used, v_oldest
          FROM api_key_usage u WHERE u.api_key_id = v_key.id AND u.window_start > v_minute - interval '1 hour';
        IF v_used >= p_limit THEN
          allowed := false;
          retry_after_seconds := greatest(1, ceil(extract(epoch FROM (v_oldest + interval '1 hour' - clock_timestamp())))::integer);
        ELSE
          INSERT INTO api_key_usage AS u (api_key_id, window_start, request_count) VALUES (v_key.id, v_minute, 1)
          ON CONFLICT (api_key_id, window_start) DO UPDATE SET request_count = u.request_count + 1
          RETURNING (xmax = 0) INTO v_new_bucket;
          IF v_new_bucket THEN
            DELETE FROM api_key_usage u WHERE u.api_key_id = v_key.id AND u.window_start <= v_minute - interval '1 hour';
          END IF;
          allowed := true;
          retry_after_seconds := 0;
        END IF;
        RETURN QUERY
          SELECT v_key.id, v_key.user_id, v_key.permissions, v_key.entity_id, usr.email, usr.name, usr.role, allowed, retry_after_seconds,
                 ent.id IS NOT NULL, ent.organization_id, m.role
            FROM users usr
            LEFT JOIN entities ent ON ent.id = p_entity_id
            LEFT JOIN memberships m ON m.organization_id = ent.organization_id AND m.user_id = usr.id
           WHERE usr.id = v_key.user_id;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION authenticate_api_key(text, text, integer, timestamptz, uuid)`);
    await queryRunner.query(AUTHENTICATE_API_KEY_V1);
  }
}
