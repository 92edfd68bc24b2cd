import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Propagation, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { monthStart } from '../../../../../libs/shared-kernel/src';
import { Clock } from '../../../../platform/clock/clock';
import type { RuntimeConfig } from '../../../../platform/config/app-config';
import { PeriodicRounds } from '../../../../platform/jobs/periodic-rounds';
import { FoldRound, MonthlyTotalsFolds } from '../../domain/monthly-totals';

/** Slot rows a round folds at most, per totals table: one round is one short transaction. */
export const FOLD_ROUND_ROWS = 5_000;

export interface FoldedTotals {
  /** Months before this one (its first day) were folded: the current business month's. */
  before: string;
  entities: number;
  rounds: number;
  accountRows: number;
  partnerRows: number;
  /** Rounds that found another fold of the same Entity running (that Entity left to it). */
  busy: number;
}

/**
 * Issue 36c: folds the monthly totals (per account, and per account and partner) of the months
 * before the current business month (D5's clock, the business time zone) into one row per
 * account, Book and month: a balance over past months then reads one row where it read up to 32
 * slots. The figures do not change (no audit row: nothing of the books does), and every round is
 * exact against postings, unbookings, reversals and closings running at the same time, also
 * those that write into past months (MonthlyTotalsFolds.foldRound; docs/DECISIONS.md, issue 36c).
 *
 * Runs every LEDGER_TOTALS_FOLD_INTERVAL_SECONDS on each instance, one round of one Entity a tick
 * (the Entities with past months still on posting slots, in turn), and at once from the CLI
 * (`npm run cli -- ledger:fold-totals`).
 */
@Injectable()
export class MonthlyTotalsFolding implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MonthlyTotalsFolding.name);
  private readonly rounds = new PeriodicRounds(
    () => this.foldNext(),
    (error) => this.logger.warn(`Folding the monthly totals failed: ${String(error)}`),
  );
  /** The last Entity the periodic job folded: the next tick goes on from the one after it. */
  private lastEntity: string | null = null;

  constructor(
    private readonly folds: MonthlyTotalsFolds,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
    private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config.get('ledgerTotalsFoldIntervalSeconds', { infer: true }));
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }

  /** The first day of the current business month: months before it are folded. */
  currentMonth(): string {
    return monthStart(this.clock.today());
  }

  /** One round on one Entity, in a transaction of its own (never a caller's: its locks end with it). */
  foldRound(entityId: string, rows = FOLD_ROUND_ROWS): Promise<FoldRound> {
    const before = this.currentMonth();
    return this.txHost.withTransaction(Propagation.RequiresNew, () => this.folds.foldRound(entityId, before, rows));
  }

  /**
   * The periodic job's tick: one round of the next Entity (after the last one, in uuid order,
   * starting over at the end) that has past months on posting slots. Null when none has.
   */
  async foldNext(rows = FOLD_ROUND_ROWS): Promise<{ entityId: string; round: FoldRound } | null> {
    const before = this.currentMonth();
    let [entityId] = await this.folds.entitiesWithUnfoldedMonths(before, this.lastEntity, 1);
    if (!entityId && this.lastEntity) [entityId] = await this.folds.entitiesWithUnfoldedMonths(before, null, 1);
    if (!entityId) {
      this.lastEntity = null;
      return null;
    }
    this.lastEntity = entityId;
    return { entityId, round: await this.foldRound(entityId, rows) };
  }

  /**
   * Folds at once (the CLI): the Entity's past months, or with no Entity every Entity's, round
   * after round until a round finds less than its bound left (rows a posting holds stay for the
   * periodic job).
   */
  async foldAll(entityId: string | null = null, rows = FOLD_ROUND_ROWS): Promise<FoldedTotals> {
    const result: FoldedTotals = { before: this.currentMonth(), entities: 0, rounds: 0, accountRows: 0, partnerRows: 0, busy: 0 };
    const foldEntity = async (id: string) => {
      result.entities++;
      for (;;) {
        const round = await this.foldRound(id, rows);
        result.rounds++;
        if (round.status === 'busy') {
          result.busy++;
          return;
        }
        result.accountRows += round.accountRows;
        result.partnerRows += round.partnerRows;
        if (round.accountRows < rows && round.partnerRows < rows) return;
      }
    };
    if (entityId) {
      await foldEntity(entityId);
      return result;
    }
    let after: string | null = null;
    for (;;) {
      const next = await this.folds.entitiesWithUnfoldedMonths(result.before, after, 100);
      for (const id of next) await foldEntity(id);
      if (next.length < 100) return result;
      after = next[next.length - 1];
    }
  }
}
