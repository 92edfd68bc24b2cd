import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditRecord, AuditRecorder } from '../../../../platform/audit/audit-recorder';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import type { RecordHostKind } from '../../../record-hosts';
import type { Attachment } from '../../domain/attachment';
import { AttachmentRepository, HostHoldQuery } from '../../domain/attachment-repository';

const COLUMNS = `entity_id AS "entityId", id, host_kind AS "hostKind", host_id AS "hostId", object_key AS "objectKey", filename,
  content_type AS "contentType", byte_size AS "byteSize", state, expires_at AS "expiresAt", created_at AS "createdAt", updated_at AS "updatedAt",
  confirm_claimed_until AS "confirmClaimedUntil"`;

/** Plain SQL: presign and confirm are on the hot path of uploads. */
@Injectable()
export class SqlAttachmentRepository extends AttachmentRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly audit: AuditRecorder,
  ) {
    super();
  }

  /** The audit row's CTE (`, audit AS (...)`) on `condition`, its parameters numbered from `first`. */
  private auditCte(audit: AuditRecord | null, first: number, condition: string): { sql: string; values: unknown[] } {
    if (!audit) return { sql: '', values: [] };
    const insertion = this.audit.insertion(audit, first, condition);
    return { sql: `, audit AS (${insertion.sql})`, values: insertion.values };
  }

  async insertOnHost(a: Attachment, hostHold: HostHoldQuery, audit: AuditRecord | null): Promise<boolean> {
    const auditCte = this.auditCte(audit, 11, 'EXISTS (SELECT 1 FROM slot)');
    const [row] = await preparedQuery<{ written: number }>(
      this.txHost.tx,
      `WITH host AS (${hostHold}),
       slot AS (
         INSERT INTO attachments (entity_id, id, host_kind, host_id, object_key, filename, content_type, byte_size, state, expires_at, created_at, updated_at)
         SELECT $1, $3, $4, $2, $5, $6, $7, $8, 'pending', $9, $10, $10 FROM host RETURNING id
       )${auditCte.sql}
       SELECT count(*)::int AS written FROM slot`,
      [a.entityId, a.hostId, a.id, a.hostKind, a.objectKey, a.filename, a.contentType, a.byteSize, a.expiresAt, a.createdAt, ...auditCte.values],
    );
    return row.written === 1;
  }

  async claimConfirmation(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { byteSize: number; contentType: string },
    claim: string,
    now: Date,
    until: Date,
  ): Promise<boolean> {
    const rows = await preparedQuery<{ id: string }>(
      this.txHost.tx,
      `UPDATE attachments SET confirm_claim = $5, confirm_claimed_until = $7
        WHERE entity_id = $1 AND id = $3 AND host_kind = $4 AND host_id = $2 AND state = 'pending' AND expires_at > $6
          AND byte_size = $8 AND content_type = $9 AND (confirm_claim IS NULL OR confirm_claimed_until <= $6)
        RETURNING id`,
      [slot.entityId, slot.hostId, slot.id, slot.hostKind, claim, now, until, stored.byteSize, stored.contentType],
    );
    return rows.length === 1;
  }

  async releaseClaim(entityId: string, id: string, claim: string): Promise<void> {
    await this.query(`UPDATE attachments SET confirm_claim = NULL, confirm_claimed_until = NULL WHERE entity_id = $1 AND id = $2 AND confirm_claim = $3`, [entityId, id, claim]);
  }

  async confirmOnHost(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { objectKey: string; byteSize: number; contentType: string },
    filename: string,
    now: Date,
    hostHold: HostHoldQuery,
    audit: AuditRecord | null,
    claim: string,
  ): Promise<{ hostFound: boolean; confirmed: Attachment | null }> {
    const auditCte = this.auditCte(audit, 11, 'EXISTS (SELECT 1 FROM done)');
    const [row] = await preparedQuery<Attachment & { hosts: number }>(
      this.txHost.tx,
      `WITH host AS (${hostHold}),
       done AS (
         UPDATE attachments SET state = 'confirmed', filename = $8, created_at = $9, updated_at = $9, confirm_claim = NULL, confirm_claimed_until = NULL
          WHERE entity_id = $1 AND id = $3 AND host_kind = $4 AND host_id = $2 AND state = 'pending' AND expires_at > $9
            AND object_key = $5 AND byte_size = $6 AND content_type = $7 AND confirm_claim = $10 AND EXISTS (SELECT 1 FROM host)
         RETURNING ${COLUMNS}
       )${auditCte.sql}
       SELECT (SELECT count(*) FROM host)::int AS hosts, done.* FROM (SELECT) AS one LEFT JOIN done ON true`,
      [slot.entityId, slot.hostId, slot.id, slot.hostKind, stored.objectKey, stored.byteSize, stored.contentType, filename, now, claim, ...auditCte.values],
    );
    const { hosts, ...confirmed } = row;
    return { hostFound: hosts > 0, confirmed: confirmed.id ? (confirmed as Attachment) : null };
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values) as Promise<T[]>;
  }

  async lock(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null> {
    const rows = await this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments WHERE entity_id = $1 AND id = $2 AND host_kind = $3 AND host_id = $4 AND state <> 'discarded' FOR UPDATE`,
      [entityId, id, hostKind, hostId],
    );
    return rows[0] ?? null;
  }

  async find(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null> {
    const rows = await this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments WHERE entity_id = $1 AND id = $2 AND host_kind = $3 AND host_id = $4 AND state <> 'discarded'`,
      [entityId, id, hostKind, hostId],
    );
    return rows[0] ?? null;
  }

  listConfirmed(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Attachment[]> {
    return this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments WHERE entity_id = $1 AND host_kind = $2 AND host_id = $3 AND state = 'confirmed' ORDER BY created_at, id`,
      [entityId, hostKind, hostId],
    );
  }

  async discard(entityId: string, id: string, now: Date): Promise<void> {
    await this.query(`UPDATE attachments SET state = 'discarded', updated_at = $3, confirm_claim = NULL, confirm_claimed_until = NULL WHERE entity_id = $1 AND id = $2`, [entityId, id, now]);
  }

  async delete(entityId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM attachments WHERE entity_id = $1 AND id = $2`, [entityId, id]);
  }

  async discardOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[], now: Date): Promise<void> {
    await this.query(
      `UPDATE attachments SET state = 'discarded', updated_at = $4, confirm_claim = NULL, confirm_claimed_until = NULL WHERE entity_id = $1 AND host_kind = $2 AND host_id = ANY($3::uuid[]) AND state <> 'discarded'`,
      [entityId, hostKind, hostIds, now],
    );
  }

  async entitiesWithSweepable(now: Date, limit: number): Promise<string[]> {
    const rows = await this.query<{ entityId: string }>(
      `/* citus:multi-shard the sweep's discovery: which Entities have due slots (no lock) */
       SELECT DISTINCT entity_id AS "entityId" FROM attachments
        WHERE state <> 'confirmed' AND (state = 'discarded' OR expires_at <= $1)
        ORDER BY 1 LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => row.entityId);
  }

  lockSweepable(entityId: string, now: Date, limit: number): Promise<Attachment[]> {
    return this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments
        WHERE entity_id = $1 AND state <> 'confirmed' AND (state = 'discarded' OR expires_at <= $2)
        ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [entityId, now, limit],
    );
  }
}
