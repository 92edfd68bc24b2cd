import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { AuditRecorder } from '../../../../platform/audit/audit-recorder';
import { isForeignKeyViolation } from '../../../../platform/database/pg-errors';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { PartnerDirectory } from '../../application/partner-directory';
import { LedgerEntry } from '../../domain/ledger-entry';
import { PostingWrite, PostingWriter } from '../../domain/entry-ports';
import { postingFactsJson, SHARE_LOCKED_ENTITY } from './posting-reader';
import { ENTRY_COLUMNS, LedgerSqlStore, lineKeysFree, LINES_INSERT, TAGS_INSERT, TOTALS_UPSERT } from './ledger-sql';
/** Parameters of the posting statement before lineParameters() and after them. */
const ENTRY_PARAMETERS = 12;
const LINE_PARAMETERS = 19;
const shift = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + by}`);

const POSTING_GUARD_PARAMETER = ENTRY_PARAMETERS + LINE_PARAMETERS + 1;
const postingAuditParameter = (guarded: boolean) => POSTING_GUARD_PARAMETER + (guarded ? 4 : 0);
const POSTING_AUDIT_CONDITION = 'EXISTS (SELECT 1 FROM entry)';

/**
 * One statement per posting (one round trip, and no transaction of its own): an optional guard
 * that share-locks the Entity row, then key-share-locks the accounts, partners and Dimension
 * Values the lines name, and checks the posting facts are still those the entry was judged
 * against (postingFactsJson); the entry row (only when the guard passed); its lines, their tags
 * and the monthly totals of a live entry (only with the entry row); the optional audit row; and
 * the count of entries written.
 */
function postingStatement(partners: PartnerDirectory, guarded: boolean, auditInsertion: string | null): string {
  const g = POSTING_GUARD_PARAMETER;
  const guard = guarded
    ? `guard AS (SELECT 1 FROM ${SHARE_LOCKED_ENTITY} WHERE ${postingFactsJson(partners, g, g + 1, g + 2, true)} = $${g + 3}),`
    : '';
  const auditInsert = auditInsertion ? `, audit AS (${auditInsertion})` : '';
  return `WITH ${guard}
     entry AS (
       INSERT INTO ledger_entries (${ENTRY_COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 ${guarded ? 'FROM guard' : ''} RETURNING id
     ), lines AS (${shift(LINES_INSERT(', entry'), ENTRY_PARAMETERS)} RETURNING account_id, side, amount, entry_id, entry_date, book_id),
     tags AS (${shift(TAGS_INSERT(', entry'), ENTRY_PARAMETERS)}),
     totals AS (${TOTALS_UPSERT('lines', `$7 IN ('active', 'reversed')`, '1')})${auditInsert}
     SELECT count(*)::int AS written FROM entry`;
}


/** Writes a posting: the entry, its lines, tags, monthly totals and (on the fast path) its audit row, in one statement. */
@Injectable()
export class SqlPostingWriter extends LedgerSqlStore implements PostingWriter {
  /** The texts of postingStatement(), built once per variant: guarded or not, audited or not. */
  private readonly postingStatements = new Map<string, string>();

  constructor(
    txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    auditContext: AuditContext,
    private readonly audit: AuditRecorder,
    private readonly partners: PartnerDirectory,
  ) {
    super(txHost, auditContext);
  }

  /** The posting statement (postingStatement()), prepared: it runs on every posting. */
  async insert(entry: LedgerEntry, write: PostingWrite = {}): Promise<boolean> {
    // The one write allowed without a transaction: a single statement that carries its audit row.
    if (!write.audit) this.requireTransaction();
    const s = entry.snapshot();
    const values: unknown[] = [
      ...[s.entityId, s.id, s.bookId, s.entryDate, s.memo, s.notes, s.status, s.source, s.reversalOfEntryId, s.reversedByEntryId, s.createdAt, s.updatedAt],
      ...this.lineParameters(entry),
    ];
    if (write.unchanged) {
      const { references, fingerprint } = write.unchanged;
      values.push(references.accountIds, references.partnerIds, references.valueIds, fingerprint);
    }
    const guarded = write.unchanged !== undefined;
    const audit = write.audit ? this.audit.insertion(write.audit, postingAuditParameter(guarded), POSTING_AUDIT_CONDITION) : null;
    if (audit) values.push(...audit.values);
    const variant = `${guarded}|${audit?.sql ?? ''}`;
    let text = this.postingStatements.get(variant);
    if (text === undefined) {
      text = postingStatement(this.partners, guarded, audit?.sql ?? null);
      this.postingStatements.set(variant, text);
    }
    try {
      const [row] = await lineKeysFree(() => preparedQuery<{ written: number }>(this.txHost.tx, text, values));
      return row.written === 1;
    } catch (error) {
      // The guard holds every row the lines and tags refer to, so their foreign keys should not
      // refuse them; should one still, nothing was written (one statement) and the posting is
      // judged again on facts read afresh, as on any change of its facts.
      if (guarded && isForeignKeyViolation(error)) return false;
      throw error;
    }
  }
}
