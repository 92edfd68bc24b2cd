import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { AccountType, Tracking } from '../../domain/account-types';
import { PostingFacts, PostingReader } from '../../domain/entry-ports';

/**
 * The posting read model: everything a new entry is judged against, in one query, because it
 * runs on every posting. It reads across the Entity, Book, chart, partner and dimension tables
 * (ARCHITECTURE allows read models to query SQL straight), and share-locks the Entity row so its
 * lock date cannot change before the posting commits (D24).
 */
@Injectable()
export class SqlPostingReader extends PostingReader {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async read(entityId: string, accountIds: string[], partnerIds: string[], valueIds: string[]): Promise<PostingFacts | null> {
    const [row]: Array<{
      currency: string;
      ledger_lock_date: string | null;
      book_ids: string[];
      accounts: Array<{ id: string; type: AccountType; tracking: Tracking }> | null;
      partner_ids: string[];
      dimension_values: Array<{ id: string; dimension_id: string }> | null;
    }> = await this.txHost.tx.query(
      `SELECT e.currency, e.ledger_lock_date,
              ARRAY(SELECT b.id FROM books b WHERE b.entity_id = e.id ORDER BY b.position) AS book_ids,
              (SELECT json_agg(json_build_object('id', a.id, 'type', a.type, 'tracking', a.tracking))
                 FROM ledger_accounts a WHERE a.entity_id = e.id AND a.id = ANY($2::uuid[])) AS accounts,
              ARRAY(SELECT p.id FROM partners p WHERE p.entity_id = e.id AND p.id = ANY($3::uuid[])) AS partner_ids,
              (SELECT json_agg(json_build_object('id', v.id, 'dimension_id', v.dimension_id))
                 FROM dimension_values v WHERE v.entity_id = e.id AND v.id = ANY($4::uuid[])) AS dimension_values
         FROM entities e WHERE e.id = $1 FOR SHARE OF e`,
      [entityId, [...new Set(accountIds)], [...new Set(partnerIds)], [...new Set(valueIds)]],
    );
    if (!row) return null;
    return {
      currency: row.currency,
      ledgerLockDate: row.ledger_lock_date,
      bookIds: row.book_ids,
      accounts: new Map((row.accounts ?? []).map((a) => [a.id, { type: a.type, tracking: a.tracking }])),
      partnerIds: new Set(row.partner_ids),
      dimensionValues: new Map((row.dimension_values ?? []).map((v) => [v.id, { dimensionId: v.dimension_id }])),
    };
  }
}
