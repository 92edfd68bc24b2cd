import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BookScope, LedgerReadSql, splitBefore, splitRange } from '../../../ledger';
import { partnerNamesSql } from '../../../partners';

/** Per account, the intercompany share of its balance before a range and over it (raw, debit positive). */
export interface IntercompanyBalance {
  accountId: string;
  beforeRaw: bigint;
  rangeRaw: bigint;
}

const SCOPE: BookScope = { entity: '$1', book: '$2::uuid' };

/**
 * D91 item 2: what a member's lines naming a partner whose taxId is another member's add to each
 * account, before `from` and over `from`..`to`, in one Book, live lines only (the ledger's read
 * seam; closing entries name no partner, so D90's rule takes nothing from here). One statement:
 * the partners by taxId from the partners' part, whole months from the per-partner monthly
 * totals (by account: their primary key), the edge days from the lines.
 */
@Injectable()
export class IntercompanyBalances {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async byAccount(entityId: string, bookId: string | null, from: string, to: string, otherTaxIds: string[]): Promise<IntercompanyBalance[]> {
    if (otherTaxIds.length === 0) return [];
    const before = splitBefore(from);
    const range = splitRange(from, to);
    const months = range.months ?? { first: '9999-12-01', last: '0001-01-01' };
    const signed = `CASE l.side WHEN 'debit' THEN l.amount ELSE -l.amount END`;
    const rows: Array<{ account_id: string; before_raw: string; range_raw: string }> = await this.txHost.tx.query(
      `WITH intercompany AS (
         SELECT ARRAY(SELECT p.id FROM ${partnerNamesSql('$1')} p WHERE p.tax_id = ANY($3::text[])) AS ids
       ), totals AS (
         SELECT a.id AS account_id,
                sum(t.debit - t.credit) FILTER (WHERE t.month < $4::date) AS before_raw,
                sum(t.debit - t.credit) FILTER (WHERE t.month BETWEEN $5::date AND $6::date) AS range_raw
           FROM ${LedgerReadSql.chartAccounts('$1')} a
           CROSS JOIN intercompany i
           -- Account by account on the totals' primary key (entity, account, partner): OFFSET 0 keeps the
           -- planner from flattening it into one scan of every partner total of the Entity.
           JOIN LATERAL (SELECT * FROM ${LedgerReadSql.partnerMonthlyTotals(SCOPE, 'a.id', { ids: 'i.ids', unassigned: 'false' })} pmt OFFSET 0) t ON true
          GROUP BY a.id
       ), edges AS (
         SELECT l.account_id,
                sum(${signed}) FILTER (WHERE l.entry_date BETWEEN $7::date AND $8::date) AS before_raw,
                sum(${signed}) FILTER (WHERE l.entry_date NOT BETWEEN $7::date AND $8::date) AS range_raw
           FROM ${LedgerReadSql.liveLines(SCOPE)} l, intercompany i
          WHERE l.partner_id = ANY(i.ids)
            AND (l.entry_date BETWEEN $7::date AND $8::date OR l.entry_date BETWEEN $9::date AND $10::date OR l.entry_date BETWEEN $11::date AND $12::date)
          GROUP BY l.account_id
       )
       SELECT coalesce(t.account_id, e.account_id) AS account_id,
              (coalesce(t.before_raw, 0) + coalesce(e.before_raw, 0))::numeric::text AS before_raw,
              (coalesce(t.range_raw, 0) + coalesce(e.range_raw, 0))::numeric::text AS range_raw
         FROM totals t FULL JOIN edges e ON e.account_id = t.account_id`,
      [
        entityId,
        bookId,
        otherTaxIds,
        before.monthsBefore,
        months.first,
        months.last,
        before.days.from,
        before.days.to,
        range.days[0].from,
        range.days[0].to,
        range.days[1].from,
        range.days[1].to,
      ],
    );
    return rows.map((r) => ({ accountId: r.account_id, beforeRaw: BigInt(r.before_raw), rangeRaw: BigInt(r.range_raw) }));
  }
}
