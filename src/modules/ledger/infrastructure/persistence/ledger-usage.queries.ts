import { exactAmount } from '../../../../../libs/shared-kernel/src';
import { Injectable } from '@nestjs/common';
import { LedgerUsageQueries } from '../../domain/entry-ports';

import { LedgerSqlStore } from './ledger-sql';

/** What other parts of the books ask about entries: whether accounts, partners, values or the Entity have any. */
@Injectable()
export class SqlLedgerUsage extends LedgerSqlStore implements LedgerUsageQueries {
  async earliestScheduledEntryDate(entityId: string): Promise<string | null> {
    const [row] = await this.query<{ d: string | null }>(`SELECT min(entry_date)::text AS d FROM ledger_entries WHERE entity_id = $1 AND status = 'scheduled'`, [entityId]);
    return row?.d ?? null;
  }

  async hasAnyEntry(entityId: string): Promise<boolean> {
    const rows = await this.query(`SELECT 1 FROM ledger_entries WHERE entity_id = $1 LIMIT 1`, [entityId]);
    return rows.length > 0;
  }

  /** One index probe per account (ledger_lines_account_idx), not a scan of the Entity's lines. */
  async accountIdsWithLines(entityId: string, accountIds?: string[]): Promise<{ named: Set<string>; live: Set<string> }> {
    const rows = await this.query<{ id: string; live: boolean }>(
      `SELECT a.id,
              EXISTS (SELECT 1 FROM ledger_lines l
                       WHERE l.entity_id = $1 AND l.account_id = a.id AND l.status IN ('active', 'reversed', 'scheduled')) AS live
         FROM ledger_accounts a
        WHERE a.entity_id = $1 AND ($2::uuid[] IS NULL OR a.id = ANY($2::uuid[]))
          AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.entity_id = $1 AND l.account_id = a.id)`,
      [entityId, accountIds ?? null],
    );
    return { named: new Set(rows.map((r) => r.id)), live: new Set(rows.filter((r) => r.live).map((r) => r.id)) };
  }

  async partnerIsNamed(entityId: string, partnerId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ledger_lines WHERE entity_id = $1 AND partner_id = $2 LIMIT 1`, [entityId, partnerId])).length > 0;
  }

  async partnerOpenBalances(entityId: string, bookId: string | null, partnerIds: string[]): Promise<Map<string, { receivable: number; payable: number }>> {
    if (partnerIds.length === 0) return new Map();
    const rows = await this.query<{ partner_id: string; receivable: string; payable: string }>(
      `SELECT l.partner_id,
              coalesce(sum(CASE l.side WHEN 'debit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)
                         FILTER (WHERE a.subtype IN ('receivable', 'unbilled_receivable')), 0)::numeric AS receivable,
              coalesce(sum(CASE l.side WHEN 'credit' THEN l.amount - l.allocated_amount ELSE l.allocated_amount - l.amount END)
                         FILTER (WHERE a.subtype = 'payable'), 0)::numeric AS payable
         FROM ledger_lines l JOIN ledger_accounts a ON a.entity_id = l.entity_id AND a.id = l.account_id
        WHERE l.entity_id = $1 AND l.partner_id = ANY($2::uuid[]) AND l.is_open_item AND l.status IN ('active', 'reversed')
          AND (l.book_id IS NULL OR l.book_id = $3::uuid)
        GROUP BY l.partner_id`,
      [entityId, partnerIds, bookId],
    );
    return new Map(rows.map((r) => [r.partner_id, { receivable: exactAmount(r.receivable, 'receivable'), payable: exactAmount(r.payable, 'payable') }]));
  }

  async dimensionValueIsTagged(entityId: string, valueId: string): Promise<boolean> {
    return (await this.query(`SELECT 1 FROM ledger_line_dimension_values WHERE entity_id = $1 AND dimension_value_id = $2 LIMIT 1`, [entityId, valueId])).length > 0;
  }
}
