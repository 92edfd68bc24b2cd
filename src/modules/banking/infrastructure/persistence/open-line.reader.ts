import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { OpenLineReader } from '../../application/banking-ports';
import type { OpenLine } from '../../domain/matching';
import { LedgerReadSql } from '../../../ledger';
import { partnerFactsSql } from '../../../partners';

const SCOPE = { entity: '$1', book: '$5::uuid' };
const LINE = `l.id, l.entry_id, to_char(l.entry_date, 'YYYY-MM-DD') AS entry_date, e.memo, l.description, l.account_id, l.side,
  l.amount::text AS amount, l.allocated_amount::text AS allocated_amount, l.is_open_item, l.status, l.book_id, l.partner_id, p.tax_id AS partner_tax_id`;
const JOINS = `JOIN ${LedgerReadSql.entries('$1')} e ON e.id = l.entry_id
  LEFT JOIN ${partnerFactsSql('$1')} p ON p.id = l.partner_id`;

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
    const rows = (await this.txHost.tx.query(`SELECT ${LINE} FROM ${LedgerReadSql.entityLines('$1')} l ${JOINS} WHERE l.id = ANY($2::uuid[]) ORDER BY l.id`, [entityId, lineIds])) as Row[];
    return rows.map(toLine);
  }

  /**
   * One statement over the ledger's open items (LedgerReadSql.openItemLines): each criterion a
   * small indexed read (open amount: ledger_lines_open_amount_idx; partner: ledger_lines_partner_idx
   * through the partners' tax id key; date: the open-items index walked both ways from the
   * movement date on each open-item account), their union read once.
   */
  async candidates(
    entityId: string,
    q: { side: 'debit' | 'credit'; amount: number; date: string; bookId: string | null; taxIds: string[]; lineIds: string[]; perCriterion: number },
  ): Promise<OpenLine[]> {
    const open = LedgerReadSql.openItemLines(SCOPE);
    const rows = (await this.txHost.tx.query(
      `WITH picked AS (
         (SELECT l.id FROM ${open} l
           WHERE l.open_amount = $3::bigint AND l.side = $2
           ORDER BY abs(l.entry_date - $4::date), l.id LIMIT $8)
         UNION
         (SELECT l.id FROM ${partnerFactsSql('$1')} p JOIN ${open} l ON l.partner_id = p.id
           WHERE p.tax_id = ANY($6::text[]) AND l.side = $2
           ORDER BY abs(l.entry_date - $4::date), l.id LIMIT $8)
         UNION
         (SELECT l.id FROM ${open} l WHERE l.id = ANY($7::uuid[]) AND l.side = $2)
         UNION
         (SELECT near.id FROM ${LedgerReadSql.chartAccounts('$1')} a
            CROSS JOIN LATERAL (
              (SELECT l.id, l.entry_date FROM ${open} l
                WHERE l.account_id = a.id AND l.entry_date <= $4::date AND l.side = $2
                ORDER BY l.entry_date DESC, l.id DESC LIMIT $8)
              UNION ALL
              (SELECT l.id, l.entry_date FROM ${open} l
                WHERE l.account_id = a.id AND l.entry_date > $4::date AND l.side = $2
                ORDER BY l.entry_date, l.id LIMIT $8)) near
           WHERE a.tracking = 'open_item'))
       SELECT ${LINE} FROM picked JOIN ${LedgerReadSql.entityLines('$1')} l ON l.id = picked.id ${JOINS}`,
      [entityId, q.side, q.amount, q.date, q.bookId, q.taxIds, q.lineIds, q.perCriterion],
    )) as Row[];
    return rows.map(toLine);
  }
}
