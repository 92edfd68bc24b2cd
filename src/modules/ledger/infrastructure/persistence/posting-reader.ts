import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import type { AccountType, Tracking } from '../../domain/account-types';
import { PostingFacts, PostingReader } from '../../domain/entry-ports';

/**
 * Everything a new entry is judged against, as one JSON value of the Entity row `e`, given the
 * parameter numbers of the entry's account, partner and Dimension Value ids. Its text is the
 * facts' fingerprint: the posting statement evaluates it again under the Entity's share lock and
 * writes only if nothing changed since the read (see SqlEntryRepository.insert).
 */
export function postingFactsJson(accounts: number, partners: number, values: number): string {
  return `json_build_object(
    'currency', e.currency,
    'ledgerLockDate', e.ledger_lock_date,
    'bookIds', ARRAY(SELECT b.id FROM books b WHERE b.entity_id = e.id ORDER BY b.position),
    'accounts', (SELECT json_agg(json_build_object('id', a.id, 'type', a.type, 'tracking', a.tracking) ORDER BY a.id)
                   FROM ledger_accounts a WHERE a.entity_id = e.id AND a.id = ANY($${accounts}::uuid[])),
    'partnerIds', ARRAY(SELECT p.id FROM partners p WHERE p.entity_id = e.id AND p.id = ANY($${partners}::uuid[]) ORDER BY p.id),
    'dimensionValues', (SELECT json_agg(json_build_object('id', v.id, 'dimensionId', v.dimension_id) ORDER BY v.id)
                          FROM dimension_values v WHERE v.entity_id = e.id AND v.id = ANY($${values}::uuid[])))::text`;
}

const READ = `SELECT ${postingFactsJson(2, 3, 4)} AS facts FROM entities e WHERE e.id = $1`;

interface FactsJson {
  currency: string;
  ledgerLockDate: string | null;
  bookIds: string[];
  accounts: Array<{ id: string; type: AccountType; tracking: Tracking }> | null;
  partnerIds: string[];
  dimensionValues: Array<{ id: string; dimensionId: string }> | null;
}

/**
 * The posting read model: everything a new entry is judged against, in one prepared query,
 * because it runs on every posting. It reads across the Entity, Book, chart, partner and
 * dimension tables (ARCHITECTURE allows read models to query SQL straight).
 */
@Injectable()
export class SqlPostingReader extends PostingReader {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async read(entityId: string, ids: { accountIds: string[]; partnerIds: string[]; valueIds: string[] }, lock: boolean): Promise<PostingFacts | null> {
    const [row] = await preparedQuery<{ facts: string }>(this.txHost.tx, lock ? `${READ} FOR SHARE OF e` : READ, [
      entityId,
      ids.accountIds,
      ids.partnerIds,
      ids.valueIds,
    ]);
    if (!row) return null;
    const facts = JSON.parse(row.facts) as FactsJson;
    return {
      currency: facts.currency,
      ledgerLockDate: facts.ledgerLockDate,
      bookIds: facts.bookIds,
      accounts: new Map((facts.accounts ?? []).map((a) => [a.id, { type: a.type, tracking: a.tracking }])),
      partnerIds: new Set(facts.partnerIds),
      dimensionValues: new Map((facts.dimensionValues ?? []).map((v) => [v.id, { dimensionId: v.dimensionId }])),
      fingerprint: row.facts,
    };
  }
}
