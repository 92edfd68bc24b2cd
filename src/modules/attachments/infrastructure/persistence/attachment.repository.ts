import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { RecordHostKind } from '../../../record-hosts';
import type { Attachment } from '../../domain/attachment';
import { AttachmentRepository } from '../../domain/attachment-repository';

const COLUMNS = `entity_id AS "entityId", id, host_kind AS "hostKind", host_id AS "hostId", object_key AS "objectKey", filename,
  content_type AS "contentType", byte_size AS "byteSize", state, expires_at AS "expiresAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Plain SQL: presign and confirm are on the hot path of uploads. */
@Injectable()
export class SqlAttachmentRepository extends AttachmentRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values) as Promise<T[]>;
  }

  async insert(a: Attachment): Promise<void> {
    await this.query(
      `INSERT INTO attachments (entity_id, id, host_kind, host_id, object_key, filename, content_type, byte_size, state, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [a.entityId, a.id, a.hostKind, a.hostId, a.objectKey, a.filename, a.contentType, a.byteSize, a.state, a.expiresAt, a.createdAt, a.updatedAt],
    );
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

  async confirm(entityId: string, id: string, filename: string, now: Date): Promise<void> {
    await this.query(`UPDATE attachments SET state = 'confirmed', filename = $3, created_at = $4, updated_at = $4 WHERE entity_id = $1 AND id = $2`, [
      entityId,
      id,
      filename,
      now,
    ]);
  }

  async confirmIfStored(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { objectKey: string; byteSize: number; contentType: string },
    filename: string,
    now: Date,
  ): Promise<Attachment | null> {
    // TypeORM answers an UPDATE ... RETURNING as [rows, affected count].
    const [rows] = (await this.txHost.tx.query(
      `UPDATE attachments SET state = 'confirmed', filename = $8, created_at = $9, updated_at = $9
        WHERE entity_id = $1 AND id = $2 AND host_kind = $3 AND host_id = $4 AND state = 'pending' AND expires_at > $9
          AND object_key = $5 AND byte_size = $6 AND content_type = $7
       RETURNING ${COLUMNS}`,
      [slot.entityId, slot.id, slot.hostKind, slot.hostId, stored.objectKey, stored.byteSize, stored.contentType, filename, now],
    )) as [Attachment[], number];
    return rows[0] ?? null;
  }

  listConfirmed(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Attachment[]> {
    return this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments WHERE entity_id = $1 AND host_kind = $2 AND host_id = $3 AND state = 'confirmed' ORDER BY created_at, id`,
      [entityId, hostKind, hostId],
    );
  }

  async delete(entityId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM attachments WHERE entity_id = $1 AND id = $2`, [entityId, id]);
  }

  async discardOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[], now: Date): Promise<void> {
    await this.query(
      `UPDATE attachments SET state = 'discarded', updated_at = $4 WHERE entity_id = $1 AND host_kind = $2 AND host_id = ANY($3::uuid[]) AND state <> 'discarded'`,
      [entityId, hostKind, hostIds, now],
    );
  }

  lockSweepable(now: Date, limit: number): Promise<Attachment[]> {
    return this.query<Attachment>(
      `SELECT ${COLUMNS} FROM attachments
        WHERE state <> 'confirmed' AND (state = 'discarded' OR expires_at <= $1)
        ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    );
  }
}
