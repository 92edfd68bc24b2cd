import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { OpenLineReader } from '../../application/banking-ports';
import type { OpenLine } from '../../domain/matching';

const LINE = `l.id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, e.memo, l.description, l.account_id, l.side,
  l.amount::text AS amount, l.allocated_amount::text AS allocated_amount, l.is_open_item, l.status, l.book_id, l.partner_id, p.tax_id AS partner_tax_id`;
const JOINS = `JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
  LEFT JOIN partners p ON p.entity_id = l.entity_id AND p.id = l.partner_id`;
/** The predicate of ledger_lines_open_items_idx: unsettled live open-item lines. */
const OPEN = `l.is_open_item AND l.status IN ('active', 'reversed') AND l.allocated_amount < l.amount`;

interface Row {
  id: string;
  entry_id: string;
  entry_date: string;
  memo: string;
  description: string | null;
  account_id: string;
  side: 'debit' | 'credit';
  amount: string;
  allocated_amount: string;
  is_open_item: boolean;
  status: string;
  book_id: string | null;
  partner_id: string | null;
  partner_tax_id: string | null;
}

const toLine = (r: Row): OpenLine => ({
  id: r.id,
  entryId: r.entry_id,
  entryDate: r.entry_date,
  memo: r.memo,
  description: r.description,
  ledgerAccountId: r.account_id,
  side: r.side,
  amount: Number(r.amount),
  allocatedAmount: Number(r.allocated_amount),
  isOpenItem: r.is_open_item,
  status: r.status,
  bookId: r.book_id,
  partnerId: r.partner_id,
  partnerTaxId: r.partner_tax_id,
});

@Injectable()
export class SqlOpenLineReader extends OpenLineReader {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async linesByIds(entityId: string, lineIds: string[]): Promise<OpenLine[]> {
    const rows = (await this.txHost.tx.query(`SELECT ${LINE} FROM ledger_lines l ${JOINS} WHERE l.entity_id = $1 AND l.id = ANY($2::uuid[]) ORDER BY l.id`, [entityId, lineIds])) as Row[];
    return rows.map(toLine);
  }

  /**
   * One statement: each criterion a small indexed read (open amount: ledger_lines_open_amount_idx;
   * partner: ledger_lines_partner_idx through the partners' tax id key; date: the open-items index
   * walked both ways from the movement date on each open-item account), their union read once.
   */
  async candidates(
    entityId: string,
    q: { side: 'debit' | 'credit'; amount: number; date: string; bookId: string | null; taxIds: string[]; lineIds: string[]; perCriterion: number },
  ): Promise<OpenLine[]> {
    const scope = `l.side = $2 AND (l.book_id IS NULL OR l.book_id = $5::uuid)`;
    const rows = (await this.txHost.tx.query(
      `WITH picked AS (
         (SELECT l.id FROM ledger_lines l
           WHERE l.entity_id = $1 AND ${OPEN} AND (l.amount - l.allocated_amount) = $3::bigint AND ${scope}
           ORDER BY abs(l.entry_date - $4::date), l.id LIMIT $8)
         UNION
         (SELECT l.id FROM partners p JOIN ledger_lines l ON l.entity_id = p.entity_id AND l.partner_id = p.id
           WHERE p.entity_id = $1 AND p.tax_id = ANY($6::text[]) AND ${OPEN} AND ${scope}
           ORDER BY abs(l.entry_date - $4::date), l.id LIMIT $8)
         UNION
         (SELECT l.id FROM ledger_lines l WHERE l.entity_id = $1 AND l.id = ANY($7::uuid[]) AND ${OPEN} AND ${scope})
         UNION
         (SELECT near.id FROM ledger_accounts a
            CROSS JOIN LATERAL (
              (SELECT l.id, l.entry_date FROM ledger_lines l
                WHERE l.entity_id = $1 AND l.account_id = a.id AND ${OPEN} AND l.entry_date <= $4::date AND ${scope}
                ORDER BY l.entry_date DESC, l.id DESC LIMIT $8)
              UNION ALL
              (SELECT l.id, l.entry_date FROM ledger_lines l
                WHERE l.entity_id = $1 AND l.account_id = a.id AND ${OPEN} AND l.entry_date > $4::date AND ${scope}
                ORDER BY l.entry_date, l.id LIMIT $8)) near
           WHERE a.entity_id = $1 AND a.tracking = 'open_item'))
       SELECT ${LINE} FROM picked JOIN ledger_lines l ON l.entity_id = $1 AND l.id = picked.id ${JOINS}`,
      [entityId, q.side, q.amount, q.date, q.bookId, q.taxIds, q.lineIds, q.perCriterion],
    )) as Row[];
    return rows.map(toLine);
  }
}
