import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { AuditRecord, AuditRecorder } from '../../../../platform/audit/audit-recorder';
import { isForeignKeyViolation } from '../../../../platform/database/pg-errors';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { PartnerDirectory } from '../../application/partner-directory';
import { LedgerEntry } from '../../domain/ledger-entry';
import { PostingOutcome, PostingWrite, PostingWriter } from '../../domain/entry-ports';
import { parameterAllocator, PartHost, shiftPlaceholders, sql } from '../../../../platform/database/statement-parts';
import { postingFactsJson, SHARE_LOCKED_ENTITY } from './posting-reader';
import { AGGREGATED_LINE_COLUMNS, batchSlot, ENTRY_COLUMNS, LedgerSqlStore, LINE_AGGREGATES_UPSERT, lineKeysFree, LINES_INSERT, TAGS_INSERT, TOTALS_UPSERT } from './ledger-sql';
/** Parameters of the posting statement before lineParameters() and after them. */
const ENTRY_PARAMETERS = 12;
const LINE_PARAMETERS = 20;

const POSTING_GUARD_PARAMETER = ENTRY_PARAMETERS + LINE_PARAMETERS + 1;
const postingAuditParameter = (guarded: boolean) => POSTING_GUARD_PARAMETER + (guarded ? 4 : 0);
/** The condition that holds in the posting statement when it writes the entry (its `entry` CTE has the row). */
const ENTRY_WRITTEN = sql`EXISTS (SELECT 1 FROM entry)`;
/** A batch's totals go to the slot of its first entry ($2, the entry ids). */
const BATCH_SLOT = batchSlot('($2::uuid[])[1]');
/** The lines a statement inserted (its `lines` CTE), as LINE_AGGREGATES_UPSERT's changes. */
const NEW_LINES = `(SELECT 1 AS sign, ${AGGREGATED_LINE_COLUMNS} FROM lines)`;

/**
 * One statement per posting (one round trip, and no transaction of its own): an optional guard
 * that share-locks the Entity row, then key-share-locks the accounts, partners and Dimension
 * Values the lines name, and checks the posting facts are still those the entry was judged
 * against (postingFactsJson); the entry row (only when the guard passed); its lines, their tags,
 * the monthly totals of a live entry and the line aggregates (LINE_AGGREGATES_UPSERT; only with
 * the entry row); the optional audit row; the caller's parts (`parts`, built on the
 * statement's parameter allocator, each writing only under ENTRY_WRITTEN); and the count of entries written.
 * With the caller's precondition (a query that locks and checks the caller's own rows,
 * PostingWrite.precondition), the entry row is written only when that query yields a row too,
 * and the statement also answers whether it did (`held`).
 */
function postingStatement(partners: PartnerDirectory, guarded: boolean, auditInsertion: string | null, parts: string[], precondition: string | null): string {
  const g = POSTING_GUARD_PARAMETER;
  const guard = guarded
    ? `guard AS (SELECT 1 FROM ${SHARE_LOCKED_ENTITY} WHERE ${postingFactsJson(partners, g, g + 1, g + 2, true)} = $${g + 3}),`
    : '';
  const held = precondition ? `precondition AS (${precondition}),` : '';
  const gates = [...(guarded ? ['guard'] : []), ...(precondition ? ['precondition'] : [])];
  const auditInsert = (auditInsertion ? `, audit AS (${auditInsertion})` : '') + parts.map((part, i) => `, part_${i} AS (${part})`).join('');
  return `WITH ${guard} ${held}
     entry AS (
       INSERT INTO ledger_entries (${ENTRY_COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 ${gates.length > 0 ? `FROM ${gates.join(', ')}` : ''} RETURNING id
     ), lines AS (${shiftPlaceholders(LINES_INSERT(', entry'), ENTRY_PARAMETERS)} RETURNING ${AGGREGATED_LINE_COLUMNS}),
     tags AS (${shiftPlaceholders(TAGS_INSERT(', entry'), ENTRY_PARAMETERS)}),
     totals AS (${TOTALS_UPSERT('lines', `$7 IN ('active', 'reversed')`, '1')}),
     ${LINE_AGGREGATES_UPSERT(NEW_LINES)}${auditInsert}
     SELECT count(*)::int AS written${precondition ? ', (SELECT count(*) FROM precondition)::int AS held' : ''} FROM entry`;
}

/**
 * A batch of booked entries of one Entity (`$1`) in one statement: the entries from arrays
 * ($2-$8; one whose id was written meanwhile is left out, ON CONFLICT), their lines ($9-$22, only
 * those of entries written), the lines' tags ($23-$25), the monthly totals once for the whole
 * batch (TOTALS_UPSERT, in the one order every writer locks them in) and the optional audit rows,
 * one per entry written ($26...). Answers the ids written and the count of lines.
 */
function batchStatement(auditInsertion: string | null): string {
  return `WITH entry AS (
       INSERT INTO ledger_entries (${ENTRY_COLUMNS})
       SELECT $1, e.id, e.book_id, e.entry_date, e.memo, e.notes, 'active', e.source, NULL, NULL, $8, $8
         FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::text[], $6::text[], $7::text[]) AS e(id, book_id, entry_date, memo, notes, source)
       ON CONFLICT (entity_id, id) DO NOTHING RETURNING id, book_id, entry_date, memo
     ), lines AS (
       INSERT INTO ledger_lines (entity_id, id, entry_id, line_no, side, account_id, amount, description, partner_id,
                                 transaction_currency, transaction_amount, exchange_rate, is_open_item, allocated_amount,
                                 book_id, entry_date, status, memo)
       SELECT $1, l.id, l.entry_id, l.line_no, l.side, l.account_id, l.amount, l.description, l.partner_id,
              l.transaction_currency, l.transaction_amount, l.exchange_rate, l.is_open_item, 0, e.book_id, e.entry_date, 'active', e.memo
         FROM unnest($9::uuid[], $10::uuid[], $11::smallint[], $12::text[], $13::uuid[], $14::bigint[], $15::text[], $16::uuid[],
                     $17::text[], $18::bigint[], $19::numeric[], $20::boolean[])
           AS l(id, entry_id, line_no, side, account_id, amount, description, partner_id, transaction_currency, transaction_amount, exchange_rate, is_open_item)
         JOIN entry e ON e.id = l.entry_id
       RETURNING id, ${AGGREGATED_LINE_COLUMNS}
     ), tags AS (
       INSERT INTO ledger_line_dimension_values (entity_id, line_id, dimension_id, dimension_value_id)
       SELECT $1, t.line_id, t.dimension_id, t.value_id FROM unnest($21::uuid[], $22::uuid[], $23::uuid[]) AS t(line_id, dimension_id, value_id)
        WHERE t.line_id IN (SELECT id FROM lines)
     ), totals AS (${TOTALS_UPSERT('lines', 'true', '1', BATCH_SLOT)}),
     ${LINE_AGGREGATES_UPSERT(NEW_LINES, BATCH_SLOT)}${auditInsertion ? `, audit AS (${auditInsertion})` : ''}
     SELECT ARRAY(SELECT id::text FROM entry) AS ids, (SELECT count(*) FROM lines)::int AS lines`;
}
const BATCH_PARAMETERS = 23;
const BATCH_AUDIT_CONDITION = 'r.resource_id IN (SELECT id FROM entry)';

/** Writes a posting: the entry, its lines, tags, monthly totals and (on the fast path) its audit row, in one statement. */
@Injectable()
export class SqlPostingWriter extends LedgerSqlStore implements PostingWriter {
  /** The texts of postingStatement(), built once per variant: guarded or not, audited or not, the caller's parts. */
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
  async insert(entry: LedgerEntry, write: PostingWrite = {}): Promise<PostingOutcome> {
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
    const audit = write.audit ? this.audit.insertion(write.audit, postingAuditParameter(guarded), ENTRY_WRITTEN) : null;
    if (audit) values.push(...audit.values);
    // The caller's precondition and parts take their parameters after the statement's own.
    const host: PartHost = { param: parameterAllocator(values), written: ENTRY_WRITTEN };
    const precondition = write.precondition ? write.precondition(host.param) : null;
    const parts = (write.parts ?? []).map((part) => part(host));
    const variant = `${guarded}|${audit?.sql ?? ''}|${precondition ?? ''}|${parts.join('|')}`;
    let text = this.postingStatements.get(variant);
    if (text === undefined) {
      text = postingStatement(this.partners, guarded, audit?.sql ?? null, parts, precondition);
      // Bounded: the variants are a few constant texts (a runaway caller would only lose the cache).
      if (this.postingStatements.size < 64) this.postingStatements.set(variant, text);
    }
    try {
      const [row] = await lineKeysFree(() => preparedQuery<{ written: number; held?: number }>(this.txHost.tx, text, values));
      if (row.written === 1) return 'written';
      return row.held === 0 ? 'precondition_failed' : 'facts_changed';
    } catch (error) {
      // The guard holds every row the lines and tags refer to, so their foreign keys should not
      // refuse them; should one still, nothing was written (one statement) and the posting is
      // judged again on facts read afresh, as on any change of its facts. Not inside a caller's
      // transaction: the failed statement has aborted it, so the error stands.
      if (guarded && isForeignKeyViolation(error) && !this.txHost.isTransactionActive()) return 'facts_changed';
      throw error;
    }
  }

  async insertBatch(entityId: string, entries: LedgerEntry[], audit: AuditRecord | null): Promise<{ entryIds: string[]; lineCount: number }> {
    this.requireTransaction();
    if (entries.length === 0) return { entryIds: [], lineCount: 0 };
    const snapshots = entries.map((entry) => entry.snapshot());
    const lines = snapshots.flatMap((s) => s.lines.map((line) => ({ entryId: s.id, line })));
    const tags = lines.flatMap(({ line }) => line.dimensionValues.map((v) => ({ lineId: line.id, ...v })));
    const values: unknown[] = [
      entityId,
      snapshots.map((s) => s.id),
      snapshots.map((s) => s.bookId),
      snapshots.map((s) => s.entryDate),
      snapshots.map((s) => s.memo),
      snapshots.map((s) => s.notes),
      snapshots.map((s) => s.source),
      snapshots[0].createdAt,
      lines.map(({ line }) => line.id),
      lines.map(({ entryId }) => entryId),
      lines.map(({ line }) => line.lineNo),
      lines.map(({ line }) => line.side),
      lines.map(({ line }) => line.ledgerAccountId),
      lines.map(({ line }) => line.amount),
      lines.map(({ line }) => line.description),
      lines.map(({ line }) => line.partnerId),
      lines.map(({ line }) => line.transactionCurrency),
      lines.map(({ line }) => line.transactionAmount),
      lines.map(({ line }) => line.exchangeRate),
      lines.map(({ line }) => line.isOpenItem),
      tags.map((t) => t.lineId),
      tags.map((t) => t.dimensionId),
      tags.map((t) => t.id),
    ];
    const auditRows = audit ? this.audit.insertionPerResource(audit, snapshots.map((s) => s.id), BATCH_PARAMETERS + 1, BATCH_AUDIT_CONDITION) : null;
    if (auditRows) values.push(...auditRows.values);
    const text = batchStatement(auditRows?.sql ?? null);
    const [row] = await lineKeysFree(() => this.query<{ ids: string[]; lines: number }>(text, values));
    return { entryIds: row.ids, lineCount: row.lines };
  }
}
