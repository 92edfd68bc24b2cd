import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { postingTermsSql } from '../../../entities';
import { PartnerDirectory } from '../../application/partner-directory';
import type { AccountType, Tracking } from '../../domain/account-types';
import { PostingFacts, PostingReader } from '../../domain/entry-ports';

/**
 * Everything a new entry is judged against, as one JSON value of the Entity row `e` (id `$1`: each
 * subquery names that parameter, so that on Citus it goes to the Entity's shard, D94, and is also
 * correlated to `e.id`, so that it runs after the Entity row is locked: uncorrelated, PostgreSQL
 * runs it first as an init plan and the rows it key-share-locks would be held before the Entity,
 * against the lock order of entry-locks.ts), given the
 * parameter numbers of the entry's account, partner and Dimension Value ids (the partners' part
 * is the partners module's, through the PartnerDirectoryPort). Its text is the
 * facts' fingerprint: the posting statement evaluates it again under the Entity's share lock and
 * writes only if nothing changed since the read (see SqlEntryRepository.insert).
 *
 * `hold` locks the named accounts, partners and Dimension Values FOR KEY SHARE (in id order), the
 * lock the foreign keys of the lines and tags take anyway, taken before the facts are compared: a
 * locking read waits for a writer of the row and then reads its latest committed version (a row
 * deleted meanwhile is not found). So a delete, or a change of an account's type or tracking
 * (which lock the row FOR UPDATE before they look for lines), either comes first and is seen, or
 * waits until the posting has committed and then sees its lines.
 */
export function postingFactsJson(directory: PartnerDirectory, accounts: number, partners: number, values: number, hold = false): string {
  const held = hold ? ' FOR KEY SHARE' : '';
  return `json_build_object(
    'currency', e.currency,
    'ledgerLockDate', e.ledger_lock_date,
    'bookIds', ARRAY(SELECT b.id FROM books b WHERE b.entity_id = $1::uuid AND b.entity_id = e.id ORDER BY b.position),
    'accounts', (SELECT json_agg(json_build_object('id', a.id, 'type', a.type, 'tracking', a.tracking) ORDER BY a.id)
                   FROM (SELECT a.id, a.type, a.tracking FROM ledger_accounts a
                          WHERE a.entity_id = $1::uuid AND a.entity_id = e.id AND a.id = ANY($${accounts}::uuid[]) ORDER BY a.id${held}) a),
    'partnerIds', ${directory.existingIdsSql('$1::uuid', `$${partners}::uuid[]`, hold, 'e.id')},
    'dimensionValues', (SELECT json_agg(json_build_object('id', v.id, 'dimensionId', v.dimension_id) ORDER BY v.id)
                          FROM (SELECT v.id, v.dimension_id FROM dimension_values v
                                 WHERE v.entity_id = $1::uuid AND v.entity_id = e.id AND v.id = ANY($${values}::uuid[]) ORDER BY v.id${held}) v))::text`;
}

/**
 * The Entity row `e` (id `$1`; the entities module's postingTermsSql), share-locked before the facts (postingFactsJson with `hold`) lock
 * what the lines name: the order the line routes take them in too (the posting terms first). A
 * posting held at the Entity row (a lock date being moved) has locked nothing it names yet.
 */
export const SHARE_LOCKED_ENTITY = `${postingTermsSql('$1', true)} e`;


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
 * because it runs on every posting. It reads the ledger's Book, chart and dimension tables, and
 * the Entity's terms and the partners through the SQL the entities and partners modules give
 * (postingTermsSql, PartnerDirectoryPort.existingIdsSql): one round trip, not one per module.
 */
@Injectable()
export class SqlPostingReader extends PostingReader {
  private texts?: { read: string; locked: string };

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly partners: PartnerDirectory,
  ) {
    super();
  }

  /** The two statements, built once (the partners' SQL is known once the application is). */
  private statements(): { read: string; locked: string } {
    return (this.texts ??= {
      read: `SELECT ${postingFactsJson(this.partners, 2, 3, 4)} AS facts FROM ${postingTermsSql('$1', false)} e`,
      locked: `SELECT ${postingFactsJson(this.partners, 2, 3, 4, true)} AS facts FROM ${SHARE_LOCKED_ENTITY}`,
    });
  }

  async read(entityId: string, ids: { accountIds: string[]; partnerIds: string[]; valueIds: string[] }, lock: boolean): Promise<PostingFacts | null> {
    const statements = this.statements();
    const [row] = await preparedQuery<{ facts: string }>(this.txHost.tx, lock ? statements.locked : statements.read, [
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

  async existing(entityId: string, entryIds: string[], lineIds: string[]): Promise<{ entryIds: Set<string>; lineIds: Set<string> }> {
    const rows = await this.txHost.tx.query(
      `SELECT 'entry' AS kind, id::text FROM ledger_entries WHERE entity_id = $1 AND id = ANY($2::uuid[])
        UNION ALL SELECT 'line', id::text FROM ledger_lines WHERE entity_id = $1 AND id = ANY($3::uuid[])`,
      [entityId, entryIds, lineIds],
    );
    const found = { entryIds: new Set<string>(), lineIds: new Set<string>() };
    for (const row of rows as Array<{ kind: string; id: string }>) (row.kind === 'entry' ? found.entryIds : found.lineIds).add(row.id);
    return found;
  }
}
