import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { canonicalRate } from '../../../../../libs/shared-kernel/src';
import { Clock } from '../../../../platform/clock/clock';
import { FxRateRepository } from '../../application/fx-ports';
import type { FxRate, FxSource } from '../../domain/fx-rate';

interface Row {
  date: string;
  currency: string;
  functional_currency: string;
  rate: string;
  source: FxSource;
}

const COLUMNS = `to_char(date, 'YYYY-MM-DD') AS date, currency, functional_currency, rate::text AS rate, source`;
const toRate = (row: Row): FxRate => ({ date: row.date, currency: row.currency, functionalCurrency: row.functional_currency, rate: canonicalRate(row.rate), source: row.source });

/** Rows per INSERT statement (5 parameters each, far below PostgreSQL's 65,535). */
const CHUNK = 1000;

@Injectable()
export class TypeOrmFxRateRepository extends FxRateRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {
    super();
  }

  private query<T>(text: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(text, values) as Promise<T[]>;
  }

  async insertNew(rates: FxRate[]): Promise<number> {
    let stored = 0;
    const now = this.clock.now();
    for (let start = 0; start < rates.length; start += CHUNK) {
      const chunk = rates.slice(start, start + CHUNK);
      const values: unknown[] = [now];
      const tuples = chunk.map((rate, i) => {
        values.push(rate.source, rate.currency, rate.date, rate.functionalCurrency, rate.rate);
        const p = 1 + i * 5;
        return `($${p + 1}, $${p + 2}, $${p + 3}::date, $${p + 4}, $${p + 5}::numeric, $1::timestamptz)`;
      });
      // A concurrent sync inserting the same rows waits on their keys, then skips them: each rate is counted once.
      const inserted = await this.query<{ n: number }>(
        `WITH inserted AS (
           INSERT INTO fx_rates (source, currency, date, functional_currency, rate, stored_at)
           VALUES ${tuples.join(', ')}
           ON CONFLICT (source, currency, date) DO NOTHING
           RETURNING 1)
         SELECT count(*)::int AS n FROM inserted`,
        values,
      );
      stored += inserted[0].n;
    }
    return stored;
  }

  async list(query: { from: string; to: string; currency?: string; source: FxSource }): Promise<FxRate[]> {
    const rows = await this.query<Row>(
      `SELECT ${COLUMNS} FROM fx_rates
        WHERE source = $1 AND date BETWEEN $2 AND $3 AND ($4::text IS NULL OR currency = $4)
        ORDER BY date, currency`,
      [query.source, query.from, query.to, query.currency ?? null],
    );
    return rows.map(toRate);
  }

  async latestOnOrBefore(currency: string, date: string, source: FxSource): Promise<FxRate | null> {
    const rows = await this.query<Row>(
      `SELECT ${COLUMNS} FROM fx_rates WHERE source = $1 AND currency = $2 AND date <= $3 ORDER BY date DESC LIMIT 1`,
      [source, currency, date],
    );
    return rows.length > 0 ? toRate(rows[0]) : null;
  }
}
