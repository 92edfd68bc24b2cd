import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { RecordHostKind } from '../../../record-hosts';
import { Todo, TodoLink, TodoRepository } from '../../domain/todo';

const COLUMN_OF: Record<RecordHostKind, string> = { invoice: 'invoice_id', bank_movement: 'bank_movement_id', ledger_entry: 'ledger_entry_id' };
const SELECT = `SELECT entity_id, id, text, completed_at, invoice_id, bank_movement_id, ledger_entry_id, created_at, updated_at FROM todos`;

interface Row {
  entity_id: string;
  id: string;
  text: string;
  completed_at: Date | null;
  invoice_id: string | null;
  bank_movement_id: string | null;
  ledger_entry_id: string | null;
  created_at: Date;
  updated_at: Date;
}

function toTodo(row: Row): Todo {
  const link: TodoLink | null = row.invoice_id
    ? { kind: 'invoice', recordId: row.invoice_id }
    : row.bank_movement_id
      ? { kind: 'bank_movement', recordId: row.bank_movement_id }
      : row.ledger_entry_id
        ? { kind: 'ledger_entry', recordId: row.ledger_entry_id }
        : null;
  return { entityId: row.entity_id, id: row.id, text: row.text, completedAt: row.completed_at, link, createdAt: row.created_at, updatedAt: row.updated_at };
}

const linkValue = (todo: Todo, kind: RecordHostKind) => (todo.link?.kind === kind ? todo.link.recordId : null);

@Injectable()
export class SqlTodoRepository extends TodoRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T> {
    return this.txHost.tx.query(sql, values) as Promise<T>;
  }

  async insert(todo: Todo): Promise<boolean> {
    const rows = await this.query<Row[]>(
      `INSERT INTO todos (entity_id, id, text, completed_at, invoice_id, bank_movement_id, ledger_entry_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (entity_id, id) DO NOTHING RETURNING id`,
      [todo.entityId, todo.id, todo.text, todo.completedAt, linkValue(todo, 'invoice'), linkValue(todo, 'bank_movement'), linkValue(todo, 'ledger_entry'), todo.createdAt, todo.updatedAt],
    );
    return rows.length === 1;
  }

  async lock(entityId: string, id: string): Promise<Todo | null> {
    const rows = await this.query<Row[]>(`${SELECT} WHERE entity_id = $1 AND id = $2 FOR UPDATE`, [entityId, id]);
    return rows[0] ? toTodo(rows[0]) : null;
  }

  async save(todo: Todo): Promise<void> {
    await this.query(`UPDATE todos SET text = $3, completed_at = $4, updated_at = $5 WHERE entity_id = $1 AND id = $2`, [
      todo.entityId,
      todo.id,
      todo.text,
      todo.completedAt,
      todo.updatedAt,
    ]);
  }

  async delete(entityId: string, id: string): Promise<void> {
    await this.query(`DELETE FROM todos WHERE entity_id = $1 AND id = $2`, [entityId, id]);
  }

  async list(entityId: string, link: TodoLink | null): Promise<Todo[]> {
    const rows = link
      ? await this.query<Row[]>(`${SELECT} WHERE entity_id = $1 AND ${COLUMN_OF[link.kind]} = $2 ORDER BY created_at, id`, [entityId, link.recordId])
      : await this.query<Row[]>(`${SELECT} WHERE entity_id = $1 ORDER BY created_at, id`, [entityId]);
    return rows.map(toTodo);
  }

  async unlink(entityId: string, kind: RecordHostKind, recordIds: string[], now: Date): Promise<number> {
    const column = COLUMN_OF[kind];
    const result = await this.query<[unknown[], number]>(`UPDATE todos SET ${column} = NULL, updated_at = $3 WHERE entity_id = $1 AND ${column} = ANY($2::uuid[])`, [
      entityId,
      recordIds,
      now,
    ]);
    return result[1];
  }
}
