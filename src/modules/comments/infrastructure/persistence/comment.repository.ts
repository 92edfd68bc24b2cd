import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { RecordHostKind } from '../../../record-hosts';
import { Comment, CommentRepository } from '../../domain/comment';

const SELECT = `SELECT entity_id AS "entityId", id, host_kind AS "hostKind", host_id AS "hostId", author_user_id AS "authorUserId", text,
  created_at AS "createdAt", updated_at AS "updatedAt" FROM comments`;

@Injectable()
export class SqlCommentRepository extends CommentRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T> {
    return this.txHost.tx.query(sql, values) as Promise<T>;
  }

  async insert(c: Comment): Promise<boolean> {
    const rows = await this.query<unknown[]>(
      `INSERT INTO comments (entity_id, id, host_kind, host_id, author_user_id, text, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (entity_id, id) DO NOTHING RETURNING id`,
      [c.entityId, c.id, c.hostKind, c.hostId, c.authorUserId, c.text, c.createdAt, c.updatedAt],
    );
    return rows.length === 1;
  }

  async lock(entityId: string, id: string): Promise<Comment | null> {
    return (await this.query<Comment[]>(`${SELECT} WHERE entity_id = $1 AND id = $2 FOR UPDATE`, [entityId, id]))[0] ?? null;
  }

  async saveText(c: Comment): Promise<void> {
    await this.query(`UPDATE comments SET text = $3, updated_at = $4 WHERE entity_id = $1 AND id = $2`, [c.entityId, c.id, c.text, c.updatedAt]);
  }

  async delete(entityId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM comments WHERE entity_id = $1 AND id = $2`, [entityId, id]);
  }

  listOfHost(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Comment[]> {
    return this.query<Comment[]>(`${SELECT} WHERE entity_id = $1 AND host_kind = $2 AND host_id = $3 ORDER BY created_at, id`, [entityId, hostKind, hostId]);
  }

  async deleteOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[]): Promise<void> {
    await this.query(`DELETE FROM comments WHERE entity_id = $1 AND host_kind = $2 AND host_id = ANY($3::uuid[])`, [entityId, hostKind, hostIds]);
  }
}
