import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { addDays } from '../../../../../libs/shared-kernel/src';
import type { AccountType } from '../../domain/account-types';
import { NIL_BOOK } from './ledger-sql';

/** One account of the chart with its balances around a range (D50: live lines, one Book). */
export interface AccountRangeBalance {
  accountId: string;
  code: string;
  name: string;
  type: AccountType;
  /** Σdebit − Σcredit of the lines dated before `from`. */
  beforeRaw: bigint;
  /** Σdebit − Σcredit of the lines dated `from`..`to`. */
  rangeRaw: bigint;
  /** The part of `beforeRaw` on lines naming one of the partners asked for. */
  partnersBeforeRaw: bigint;
  /** The part of `rangeRaw` on lines naming one of the partners asked for. */
  partnersRangeRaw: bigint;
}

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
function monthEnd(date: string): string {
  const month = Number(date.slice(5, 7));
  // December ends on the 31st (and 9999-12 has no next month to step back from).
  return month === 12 ? `${date.slice(0, 4)}-12-31` : addDays(`${date.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`, -1);
}

/**
 * The ledger's balances by account, read for other modules (consolidation, issue 36): every
 * account of an Entity's chart with its balance before a range and over it, in one Book (common
 * lines plus that Book's; null: common lines only), live entries only (D50), and the share of
 * both on lines naming given partners. Whole months come from the monthly totals (per account and
 * per partner); only the days of the first month before `from` and of the last month after `to`
 * are read from the lines, so the cost is O(accounts x months) plus at most two partial months.
 */
@Injectable()
export class LedgerAccountBalances {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async byAccount(entityId: string, bookId: string | null, from: string, to: string, partnerIds: readonly string[]): Promise<AccountRangeBalance[]> {
    const books = `book_key IN ('${NIL_BOOK}'::uuid, coalesce($2::uuid, '${NIL_BOOK}'::uuid))`;
    const rows: Array<Record<string, string>> = await this.txHost.tx.query(
      `WITH totals AS (
         SELECT account_id,
                sum(debit - credit) FILTER (WHERE month < $3::date) AS before_raw,
                sum(debit - credit) FILTER (WHERE month >= $3::date) AS range_raw
           FROM ledger_account_monthly_totals
          WHERE entity_id = $1 AND ${books} AND month <= $5::date
          GROUP BY account_id
       ), partner_totals AS (
         SELECT account_id,
                sum(debit - credit) FILTER (WHERE month < $3::date) AS before_raw,
                sum(debit - credit) FILTER (WHERE month >= $3::date) AS range_raw
           FROM ledger_partner_monthly_totals
          WHERE entity_id = $1 AND ${books} AND month <= $5::date AND cardinality($8::uuid[]) > 0 AND partner_key = ANY($8::uuid[])
          GROUP BY account_id
       ), edges AS (
         SELECT l.account_id,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date < $4::date) AS head,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date > $6::date) AS tail,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date < $4::date AND l.partner_id = ANY($8::uuid[])) AS partners_head,
                sum(CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END) FILTER (WHERE l.entry_date > $6::date AND l.partner_id = ANY($8::uuid[])) AS partners_tail
           FROM ledger_lines l
          WHERE l.entity_id = $1 AND l.status IN ('active', 'reversed') AND (l.book_id IS NULL OR l.book_id = $2::uuid)
            AND ((l.entry_date >= $3::date AND l.entry_date < $4::date) OR (l.entry_date > $6::date AND l.entry_date <= $7::date))
          GROUP BY l.account_id
       )
       SELECT a.id, a.code, a.name, a.type,
              (coalesce(t.before_raw, 0) + coalesce(e.head, 0))::numeric::text AS before_raw,
              (coalesce(t.range_raw, 0) - coalesce(e.head, 0) - coalesce(e.tail, 0))::numeric::text AS range_raw,
              (coalesce(p.before_raw, 0) + coalesce(e.partners_head, 0))::numeric::text AS partners_before_raw,
              (coalesce(p.range_raw, 0) - coalesce(e.partners_head, 0) - coalesce(e.partners_tail, 0))::numeric::text AS partners_range_raw
         FROM ledger_accounts a
         LEFT JOIN totals t ON t.account_id = a.id
         LEFT JOIN partner_totals p ON p.account_id = a.id
         LEFT JOIN edges e ON e.account_id = a.id
        WHERE a.entity_id = $1`,
      [entityId, bookId, monthStart(from), from, monthStart(to), to, monthEnd(to), [...partnerIds]],
    );
    return rows.map((r) => ({
      accountId: r.id,
      code: r.code,
      name: r.name,
      type: r.type as AccountType,
      beforeRaw: BigInt(r.before_raw),
      rangeRaw: BigInt(r.range_raw),
      partnersBeforeRaw: BigInt(r.partners_before_raw),
      partnersRangeRaw: BigInt(r.partners_range_raw),
    }));
  }
}
