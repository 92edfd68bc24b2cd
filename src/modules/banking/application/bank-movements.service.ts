import { Injectable } from '@nestjs/common';
import { RecordHosts } from '../../record-hosts';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { decodeDateIdCursor, encodeDateIdCursor, newTimeOrderedId, validationError } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { assertDeletable, BankMovement, MovementSide, newManualMovement } from '../domain/bank-movement';
import { bankAccountNotFound, bankMovementAlreadyExists, bankMovementNotFound } from '../domain/banking-errors';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { BankAccountRepository, BankMovementRepository, StatementFileReader } from './banking-ports';

export interface MovementQuery {
  from?: string;
  to?: string;
  booked?: boolean;
  cursor?: string;
  limit?: number;
}

export interface ManualMovementInput {
  id: string;
  movementDate: string;
  description: string;
  amount: number;
  side: MovementSide;
  reference?: string | null;
}

/** Bank movements (D65, D76, D78): list, manual create, get, delete while unbooked, statement import. */
@Injectable()
export class BankMovementsService {
  constructor(
    private readonly accounts: BankAccountRepository,
    private readonly movements: BankMovementRepository,
    private readonly reader: StatementFileReader,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly recordHosts: RecordHosts,
    private readonly auditRow: OfferedAuditRow,
  ) {}

  async page(entityId: string, bankAccountId: string, query: MovementQuery): Promise<{ rows: BankMovement[]; nextCursor: string | null }> {
    const after = query.cursor ? decodeDateIdCursor(query.cursor) : null;
    if (query.cursor && !after) throw validationError('cursor', 'is not a cursor of this list');
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) throw validationError('to', 'must be on or after from');
    if (!(await this.accounts.find(entityId, bankAccountId))) throw bankAccountNotFound({ bankAccountId });
    const limit = query.limit ?? 50;
    const found = await this.movements.page(entityId, bankAccountId, { from: query.from, to: query.to, booked: query.booked, after, limit });
    const rows = found.slice(0, limit);
    const last = rows[rows.length - 1];
    return { rows, nextCursor: found.length > limit ? encodeDateIdCursor({ date: last.movementDate, id: last.id }) : null };
  }

  /** D93: the list's whole filtered range (no cursor), newest first, streamed to `send` with the account's currency. */
  async streamAll(
    entityId: string,
    bankAccountId: string,
    query: { from?: string; to?: string; booked?: boolean },
    signal: AbortSignal,
    send: (currency: string, batches: AsyncIterable<BankMovement[]>) => Promise<void>,
  ): Promise<void> {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) throw validationError('to', 'must be on or after from');
    const account = await this.accounts.find(entityId, bankAccountId);
    if (!account) throw bankAccountNotFound({ bankAccountId });
    await this.movements.readAll(entityId, bankAccountId, { from: query.from, to: query.to, booked: query.booked }, signal, (batches) => send(account.currency, batches));
  }

  async get(entityId: string, movementId: string): Promise<BankMovement> {
    const movement = await this.movements.find(entityId, movementId);
    if (!movement) throw bankMovementNotFound({ movementId });
    return movement;
  }

  create(entityId: string, bankAccountId: string, input: ManualMovementInput): Promise<BankMovement> {
    return this.txHost.withTransaction(async () => {
      if (!(await this.accounts.hold(entityId, bankAccountId))) throw bankAccountNotFound({ bankAccountId });
      if (await this.movements.find(entityId, input.id)) throw bankMovementAlreadyExists({ movementId: input.id });
      const movement = newManualMovement({ entityId, bankAccountId, ...input, reference: input.reference ?? null }, this.clock.now());
      await translateUniqueViolation(() => this.movements.insert(movement), () => bankMovementAlreadyExists({ movementId: input.id }));
      return movement;
    });
  }

  delete(entityId: string, movementId: string): Promise<BankMovement> {
    return this.txHost.withTransaction(async () => {
      const movement = await this.movements.lock(entityId, movementId);
      if (!movement) throw bankMovementNotFound({ movementId });
      assertDeletable(movement);
      await this.movements.delete(entityId, movementId);
      // Issue 21: its attachments are discarded, its comments deleted, its To-dos unlinked, in this transaction.
      await this.recordHosts.recordsRemoved(entityId, 'bank_movement', [movementId]);
      return movement;
    });
  }

  /**
   * D78: the whole file is judged before anything lands (a bad row: 400 naming it, nothing
   * written); rows already landed by content are skipped, so a re-import lands nothing.
   */
  async import(entityId: string, bankAccountId: string, file: Buffer): Promise<{ landedCount: number; skippedCount: number }> {
    // D2b: read and judged off the main thread, before the transaction opens.
    const rows = await this.reader.read(file);
    return this.txHost.withTransaction(async () => {
      if (!(await this.accounts.hold(entityId, bankAccountId))) throw bankAccountNotFound({ bankAccountId });
      const landedCount = await this.movements.importRows(entityId, bankAccountId, rows, rows.map(() => newTimeOrderedId()), this.clock.now());
      await this.auditRow.record(bankAccountId);
      return { landedCount, skippedCount: rows.length - landedCount };
    });
  }
}
