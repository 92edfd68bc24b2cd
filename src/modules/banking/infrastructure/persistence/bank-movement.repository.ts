import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BankMovementRepository, MovementFilter } from '../../application/banking-ports';
import type { BankMovement } from '../../domain/bank-movement';
import { withReadCursor } from '../../../../platform/database/read-cursor';
import type { StatementRow } from '../../domain/statement';
import { sql, type StatementPart, type StatementQuery } from '../../../../platform/database/statement-parts';
import { LedgerReadSql } from '../../../ledger';

const columns = (t: string) => `${t}.entity_id, ${t}.id, ${t}.bank_account_id, to_char(${t}.movement_date, 'YYYY-MM-DD') AS movement_date, ${t}.description,
  ${t}.amount::text AS amount, ${t}.side, ${t}.reference, ${t}.counterparty_name, ${t}.counterparty_tax_id, ${t}.source, ${t}.provider_movement_id,
  ${t}.ledger_entry_id, ${t}.created_at, ${t}.updated_at`;
const COLUMNS = columns('bank_movements');

/**
 * The statement's tail that counts the new unreconciled movements of `cte` (rows with their
 * `ledger_entry_id`) into `bank_accounts.unreconciled_count` (D94: no trigger keeps it; every
 * statement that writes bank_movements keeps it in the same statement). `$1` is the Entity,
 * `account` the bank account's parameter.
 */
export function unreconciledPlus(cte: string, account = '$3'): string {
  return `UPDATE bank_accounts SET unreconciled_count = unreconciled_count + (SELECT count(*)::int FROM ${cte} WHERE ledger_entry_id IS NULL)
           WHERE entity_id = $1 AND id = ${account}`;
}

interface MovementRow {
  entity_id: string;
  id: string;
  bank_account_id: string;
  movement_date: string;
  description: string;
  amount: string;
  side: BankMovement['side'];
  reference: string | null;
  counterparty_name: string | null;
  counterparty_tax_id: string | null;
  source: BankMovement['source'];
  provider_movement_id: string | null;
  ledger_entry_id: string | null;
  created_at: Date;
  updated_at: Date;
}

function toMovement(row: MovementRow): BankMovement {
  return {
    entityId: row.entity_id,
    id: row.id,
    bankAccountId: row.bank_account_id,
    movementDate: row.movement_date,
    description: row.description,
    amount: Number(row.amount),
    side: row.side,
    reference: row.reference,
    counterpartyName: row.counterparty_name,
    counterpartyTaxId: row.counterparty_tax_id,
    source: row.source,
    providerMovementId: row.provider_movement_id,
    ledgerEntryId: row.ledger_entry_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

@Injectable()
export class SqlBankMovementRepository extends BankMovementRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private async rows(sql: string, parameters: unknown[]): Promise<BankMovement[]> {
    return ((await this.txHost.tx.query(sql, parameters)) as MovementRow[]).map(toMovement);
  }

  /** The list's statement (newest first, keyset on (movement_date, id)); $7 the limit (null: every row). */
  private static listSql(filter: Pick<MovementFilter, 'booked'>): string {
    const booked = filter.booked === undefined ? '' : filter.booked ? 'AND ledger_entry_id IS NOT NULL' : 'AND ledger_entry_id IS NULL';
    return `SELECT ${COLUMNS} FROM bank_movements
        WHERE entity_id = $1 AND bank_account_id = $2
          AND ($3::date IS NULL OR movement_date >= $3::date) AND ($4::date IS NULL OR movement_date <= $4::date)
          AND ($5::date IS NULL OR (movement_date, id) < ($5::date, $6::uuid)) ${booked}
        ORDER BY movement_date DESC, id DESC LIMIT $7`;
  }

  /** Newest first, keyset on (movement_date, id) over bank_movements_account_date_idx (or its unbooked twin). */
  page(entityId: string, bankAccountId: string, filter: MovementFilter): Promise<BankMovement[]> {
    return this.rows(SqlBankMovementRepository.listSql(filter), [entityId, bankAccountId, filter.from ?? null, filter.to ?? null, filter.after?.date ?? null, filter.after?.id ?? null, filter.limit + 1]);
  }

  /** D93: every movement of the filter (no cursor), newest first, in batches from a database cursor (cancelled when `signal` aborts). */
  readAll<R>(entityId: string, bankAccountId: string, filter: Omit<MovementFilter, 'after' | 'limit'>, signal: AbortSignal, use: (batches: AsyncIterable<BankMovement[]>) => Promise<R>): Promise<R> {
    return withReadCursor(this.txHost.tx.connection, signal, (cursor) =>
      use(
        (async function* () {
          const values = [entityId, bankAccountId, filter.from ?? null, filter.to ?? null, null, null, null];
          for await (const rows of cursor.batches<MovementRow>(SqlBankMovementRepository.listSql(filter), values, 1000)) yield rows.map(toMovement);
        })(),
      ),
    );
  }

  async find(entityId: string, movementId: string): Promise<BankMovement | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM bank_movements WHERE entity_id = $1 AND id = $2`, [entityId, movementId]))[0] ?? null;
  }

  async lock(entityId: string, movementId: string): Promise<BankMovement | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM bank_movements WHERE entity_id = $1 AND id = $2 FOR UPDATE`, [entityId, movementId]))[0] ?? null;
  }

  async readForBooking(entityId: string, movementId: string, locked: boolean): Promise<{ movement: BankMovement; version: string } | null> {
    const rows = (await this.txHost.tx.query(
      `SELECT ${COLUMNS}, xmin::text AS version FROM bank_movements WHERE entity_id = $1 AND id = $2${locked ? ' FOR UPDATE' : ''}`,
      [entityId, movementId],
    )) as Array<MovementRow & { version: string }>;
    return rows[0] ? { movement: toMovement(rows[0]), version: rows[0].version } : null;
  }

  bookingPrecondition(entityId: string, movementId: string, version: string): StatementQuery {
    // xmin changes with every write to the row: no change can slip between the read and the booking.
    return (param) =>
      sql`SELECT 1 FROM bank_movements WHERE entity_id = ${param(entityId)} AND id = ${param(movementId)} AND xmin = ${param(version)}::xid AND ledger_entry_id IS NULL FOR UPDATE`;
  }

  bookingParts(movement: BankMovement, entryId: string, now: Date): StatementPart[] {
    // The movement was unreconciled (checked under its row lock: the precondition, or the locked
    // read): its bank account counts one fewer (D94), in the same statement.
    return [
      ({ param, written }) =>
        sql`UPDATE bank_movements SET ledger_entry_id = ${param(entryId)}, updated_at = ${param(now)}
             WHERE entity_id = ${param(movement.entityId)} AND id = ${param(movement.id)} AND ${written}`,
      ({ param, written }) =>
        sql`UPDATE bank_accounts SET unreconciled_count = unreconciled_count - 1
             WHERE entity_id = ${param(movement.entityId)} AND id = ${param(movement.bankAccountId)} AND ${written}`,
    ];
  }

  async insert(m: BankMovement): Promise<void> {
    await this.txHost.tx.query(
      `WITH inserted AS (
         INSERT INTO bank_movements (entity_id, id, bank_account_id, movement_date, description, amount, side, reference, counterparty_name,
                                     counterparty_tax_id, source, provider_movement_id, ledger_entry_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
         RETURNING ledger_entry_id)
       ${unreconciledPlus('inserted')}`,
      [m.entityId, m.id, m.bankAccountId, m.movementDate, m.description, m.amount, m.side, m.reference, m.counterpartyName, m.counterpartyTaxId, m.source, m.providerMovementId, m.ledgerEntryId, m.createdAt],
    );
  }

  /**
   * One statement for the whole file (arrays unnested), rows in file order. A row whose content
   * hash the account already has (an earlier import, or a concurrent one that commits first: the
   * unique key makes this one wait for it) is skipped.
   */
  async importRows(entityId: string, bankAccountId: string, rows: StatementRow[], ids: string[], now: Date): Promise<number> {
    if (rows.length === 0) return 0;
    const result = (await this.txHost.tx.query(
      `WITH inserted AS (
         INSERT INTO bank_movements (entity_id, id, bank_account_id, movement_date, description, amount, side, reference, source, content_hash, created_at, updated_at)
         SELECT $1, r.id, $2, r.movement_date, r.description, r.amount, r.side, r.reference, 'import', r.content_hash, $3, $3
           FROM unnest($4::uuid[], $5::date[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[])
                AS r(id, movement_date, description, amount, side, reference, content_hash)
         ON CONFLICT ON CONSTRAINT bank_movements_content_key DO NOTHING
         RETURNING ledger_entry_id),
       counted AS (${unreconciledPlus('inserted', '$2')})
       SELECT count(*)::int AS landed FROM inserted`,
      [
        entityId,
        bankAccountId,
        now,
        ids,
        rows.map((r) => r.movementDate),
        rows.map((r) => r.description),
        rows.map((r) => String(r.amount)),
        rows.map((r) => r.side),
        rows.map((r) => r.reference),
        rows.map((r) => r.contentHash),
      ],
    )) as Array<{ landed: number }>;
    return result[0].landed;
  }

  async delete(entityId: string, movementId: string): Promise<void> {
    await this.txHost.tx.query(
      `WITH deleted AS (DELETE FROM bank_movements WHERE entity_id = $1 AND id = $2 RETURNING bank_account_id, ledger_entry_id)
       UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count - 1
         FROM deleted d WHERE a.entity_id = $1 AND a.id = d.bank_account_id AND d.ledger_entry_id IS NULL`,
      [entityId, movementId],
    );
  }

  async setEntry(entityId: string, movementId: string, entryId: string, now: Date): Promise<void> {
    // The movement was unreconciled (the use case checked it under its row lock): one fewer.
    await this.txHost.tx.query(
      `WITH booked AS (
         UPDATE bank_movements m SET ledger_entry_id = $3, updated_at = $4
           FROM (SELECT id, ledger_entry_id FROM bank_movements WHERE entity_id = $1 AND id = $2 FOR UPDATE) o
          WHERE m.entity_id = $1 AND m.id = o.id
         RETURNING m.bank_account_id, o.ledger_entry_id AS was, m.ledger_entry_id AS now)
       UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count
                                 - (CASE WHEN b.was IS NULL THEN 1 ELSE 0 END) + (CASE WHEN b.now IS NULL THEN 1 ELSE 0 END)
         FROM booked b WHERE a.entity_id = $1 AND a.id = b.bank_account_id`,
      [entityId, movementId, entryId, now],
    );
  }

  severByEntries(entityId: string, entryIds: string[], now: Date): Promise<Array<{ movement: BankMovement; entryId: string }>> {
    return this.sever(entityId, entryIds, false, now);
  }

  severByReversedEntries(entityId: string, entryIds: string[], now: Date): Promise<Array<{ movement: BankMovement; entryId: string }>> {
    return this.sever(entityId, entryIds, true, now);
  }

  async lockSeveredFrom(entityId: string, entryIds: string[]): Promise<Array<{ movement: BankMovement; entryId: string }>> {
    if (entryIds.length === 0) return [];
    const rows = (await this.txHost.tx.query(
      `SELECT ${COLUMNS}, s.entry_id AS severed_from
         FROM bank_movement_severed_bookings s JOIN bank_movements ON bank_movements.entity_id = s.entity_id AND bank_movements.id = s.bank_movement_id
        WHERE s.entity_id = $1 AND s.entry_id = ANY($2::uuid[]) ORDER BY bank_movements.id, s.entry_id FOR UPDATE OF bank_movements`,
      [entityId, entryIds],
    )) as Array<MovementRow & { severed_from: string }>;
    return rows.map((row) => ({ movement: toMovement(row), entryId: row.severed_from }));
  }

  async forgetSeveredFrom(entityId: string, entryIds: string[]): Promise<void> {
    if (entryIds.length === 0) return;
    await this.txHost.tx.query(`DELETE FROM bank_movement_severed_bookings WHERE entity_id = $1 AND entry_id = ANY($2::uuid[])`, [entityId, entryIds]);
  }

  /** A reversed entry's booking is kept aside (beside any kept from other entries) in the same statement. */
  private async sever(entityId: string, entryIds: string[], restorable: boolean, now: Date): Promise<Array<{ movement: BankMovement; entryId: string }>> {
    if (entryIds.length === 0) return [];
    const rows = (await this.txHost.tx.query(
      `WITH booked AS (SELECT id, ledger_entry_id FROM bank_movements WHERE entity_id = $1 AND ledger_entry_id = ANY($2::uuid[]) ORDER BY id FOR UPDATE),
       severed AS (
         UPDATE bank_movements m SET ledger_entry_id = NULL, updated_at = $3
           FROM booked
          WHERE m.entity_id = $1 AND m.id = booked.id
         RETURNING m.*, booked.ledger_entry_id AS severed_from),
       kept AS (
         INSERT INTO bank_movement_severed_bookings (entity_id, entry_id, bank_movement_id)
         SELECT $1, severed_from, id FROM severed WHERE $4
         ON CONFLICT (entity_id, entry_id, bank_movement_id) DO NOTHING),
       counted AS (
         UPDATE bank_accounts a SET unreconciled_count = a.unreconciled_count + c.n
           FROM (SELECT bank_account_id, count(*)::int AS n FROM severed GROUP BY 1) c
          WHERE a.entity_id = $1 AND a.id = c.bank_account_id)
       SELECT ${columns('s')}, s.severed_from FROM severed s ORDER BY s.id`,
      [entityId, entryIds, now, restorable],
    )) as Array<MovementRow & { severed_from: string }>;
    return rows.map((row) => ({ movement: toMovement(row), entryId: row.severed_from }));
  }

  byEntries(entityId: string, entryIds: string[]): Promise<BankMovement[]> {
    if (entryIds.length === 0) return Promise.resolve([]);
    return this.rows(`SELECT ${COLUMNS} FROM bank_movements WHERE entity_id = $1 AND ledger_entry_id = ANY($2::uuid[]) ORDER BY id`, [entityId, entryIds]);
  }

  async bankLinesOfBookings(entityId: string, lineIds: string[]): Promise<Set<string>> {
    if (lineIds.length === 0) return new Set();
    const rows = (await this.txHost.tx.query(
      `SELECT l.id FROM ${LedgerReadSql.entityLines('$1')} l
         JOIN bank_movements m ON m.entity_id = $1 AND m.ledger_entry_id = l.entry_id
         JOIN bank_accounts a ON a.entity_id = m.entity_id AND a.id = m.bank_account_id
        WHERE l.id = ANY($2::uuid[]) AND l.account_id = a.ledger_account_id`,
      [entityId, lineIds],
    )) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  }
}
