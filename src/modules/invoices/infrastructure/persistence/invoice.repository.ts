import { Injectable } from '@nestjs/common';
import { Propagation, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { isUniqueViolation } from '../../../../platform/database/pg-errors';
import { preparedQuery } from '../../../../platform/database/prepared-query';
import { sql, StatementPart, StatementQuery, withParts } from '../../../../platform/database/statement-parts';
import { unicodeCollateClause } from '../../../../platform/database/unicode-collation';
import { withReadCursor } from '../../../../platform/database/read-cursor';
import type { Invoice, InvoiceListFilter } from '../../domain/invoice';
import { BookingContext, InvoiceLinkSummary, InvoicePageKey, InvoiceRepository, SeveredBooking } from '../../domain/ports';
import { LedgerReadSql } from '../../../ledger';
import { partnerFactsSql } from '../../../partners';
import { entityFactsSql } from '../../../entities';

/**
 * The invoice's fields that a booked invoice may not change (all but description and due date,
 * D61), as one jsonb value: kept with a severed booking and compared when it is restored.
 */
const BOOKED_TERMS = `jsonb_build_object('documentKind', i.document_kind, 'documentNumber', i.document_number, 'issueDate', i.issue_date, 'partnerId', i.partner_id,
  'currency', i.currency, 'exchangeRate', i.exchange_rate, 'netAmount', i.net_amount, 'exemptAmount', i.exempt_amount, 'taxAmount', i.tax_amount,
  'totalAmount', i.total_amount, 'servicePeriodStart', i.service_period_start, 'servicePeriodEnd', i.service_period_end)`;

const COLUMNS = `i.entity_id, i.id, i.direction, i.document_kind, i.document_number, to_char(i.issue_date, 'YYYY-MM-DD') AS issue_date,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.partner_id, i.currency, i.exchange_rate::text AS exchange_rate,
  i.net_amount::text AS net_amount, i.exempt_amount::text AS exempt_amount, i.tax_amount::text AS tax_amount, i.total_amount::text AS total_amount,
  to_char(i.service_period_start, 'YYYY-MM-DD') AS service_period_start, to_char(i.service_period_end, 'YYYY-MM-DD') AS service_period_end,
  i.description, i.book_status, i.ledger_entry_id, i.open_item_line_id, i.dte_id, i.created_at, i.updated_at`;

interface Row {
  entity_id: string;
  id: string;
  direction: Invoice['direction'];
  document_kind: Invoice['documentKind'];
  document_number: string;
  issue_date: string;
  due_date: string | null;
  partner_id: string;
  currency: string;
  exchange_rate: string | null;
  net_amount: string;
  exempt_amount: string;
  tax_amount: string;
  total_amount: string;
  service_period_start: string | null;
  service_period_end: string | null;
  description: string | null;
  book_status: Invoice['bookStatus'];
  ledger_entry_id: string | null;
  open_item_line_id: string | null;
  dte_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** numeric(24,12) reads back with trailing zeros: the written form of a rate has none (D7). */
const plainRate = (rate: string | null) => (rate === null ? null : rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

const toInvoice = (r: Row): Invoice => ({
  entityId: r.entity_id,
  id: r.id,
  direction: r.direction,
  documentKind: r.document_kind,
  documentNumber: r.document_number,
  issueDate: r.issue_date,
  dueDate: r.due_date,
  partnerId: r.partner_id,
  currency: r.currency,
  exchangeRate: plainRate(r.exchange_rate),
  netAmount: Number(r.net_amount),
  exemptAmount: Number(r.exempt_amount),
  taxAmount: Number(r.tax_amount),
  totalAmount: Number(r.total_amount),
  servicePeriodStart: r.service_period_start,
  servicePeriodEnd: r.service_period_end,
  description: r.description,
  bookStatus: r.book_status,
  ledgerEntryId: r.ledger_entry_id,
  openItemLineId: r.open_item_line_id,
  dteId: r.dte_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const WRITABLE = [
  'document_kind',
  'document_number',
  'issue_date',
  'due_date',
  'partner_id',
  'currency',
  'exchange_rate',
  'net_amount',
  'exempt_amount',
  'tax_amount',
  'total_amount',
  'service_period_start',
  'service_period_end',
  'description',
  'dte_id',
  'updated_at',
] as const;

function writableValues(i: Invoice): unknown[] {
  return [
    i.documentKind,
    i.documentNumber,
    i.issueDate,
    i.dueDate,
    i.partnerId,
    i.currency,
    i.exchangeRate,
    i.netAmount,
    i.exemptAmount,
    i.taxAmount,
    i.totalAmount,
    i.servicePeriodStart,
    i.servicePeriodEnd,
    i.description,
    i.dteId,
    i.updatedAt,
  ];
}

/**
 * Issue 37: an invoice's image as invoice_month_totals reads it, from a relation of invoices
 * (`RETURNING` of a write), with the sign it moves the totals by.
 */
const MONTH_IMAGE = (sign: 1 | -1) =>
  `entity_id, id, issue_date, direction, document_kind, exchange_rate, exempt_amount, net_amount, tax_amount, total_amount, ${sign} AS sign`;

/**
 * The upsert moving invoice_month_totals (invoice.records.ts) by the signed invoice images of
 * `moves`, as the last CTE of the statement that writes them: the invoices in the Entity's
 * currency only (no exchange rate), each on the slot of its id, groups that net to nothing
 * skipped (an edit of the description or the due date moves nothing), rows in key order.
 */
const MONTH_TOTALS_UPSERT = (moves: string) => `INSERT INTO invoice_month_totals (entity_id, month, direction, document_kind, slot, invoice_count, exempt_amount, net_amount, tax_amount, total_amount)
  SELECT m.entity_id, date_trunc('month', m.issue_date)::date, m.direction, m.document_kind, hashtext(m.id::text) & 15,
         sum(m.sign), sum(m.sign * m.exempt_amount), sum(m.sign * m.net_amount), sum(m.sign * m.tax_amount), sum(m.sign * m.total_amount)
    FROM ${moves} m
   WHERE m.exchange_rate IS NULL
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(m.sign) <> 0 OR sum(m.sign * m.exempt_amount) <> 0 OR sum(m.sign * m.net_amount) <> 0 OR sum(m.sign * m.tax_amount) <> 0 OR sum(m.sign * m.total_amount) <> 0
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (entity_id, month, direction, document_kind, slot) DO UPDATE SET
    invoice_count = invoice_month_totals.invoice_count + EXCLUDED.invoice_count,
    exempt_amount = invoice_month_totals.exempt_amount + EXCLUDED.exempt_amount,
    net_amount = invoice_month_totals.net_amount + EXCLUDED.net_amount,
    tax_amount = invoice_month_totals.tax_amount + EXCLUDED.tax_amount,
    total_amount = invoice_month_totals.total_amount + EXCLUDED.total_amount`;

const NUMBER_KEY = 'invoices_document_number_key';
/** The primary key's name, as TypeORM wrote it in the migration. */
const INVOICES_PKEY = 'PK_1105f999d9ff3ab69a26430a22d';

@Injectable()
export class SqlInvoiceRepository extends InvoiceRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private async rows(sql: string, values: unknown[]): Promise<Invoice[]> {
    return ((await this.txHost.tx.query(sql, values)) as Row[]).map(toInvoice);
  }

  async find(entityId: string, invoiceId: string): Promise<Invoice | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.id = $2`, [entityId, invoiceId]))[0] ?? null;
  }

  async lock(entityId: string, invoiceId: string): Promise<Invoice | null> {
    return (await this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.id = $2 FOR UPDATE`, [entityId, invoiceId]))[0] ?? null;
  }

  /**
   * One round trip for what booking reads (instead of four: the invoice, its partner, the Entity,
   * the open-item accounts). The partner and the Entity are the invoice's by foreign key. A named
   * prepared statement: it runs on every booking.
   */
  async readForBooking(entityId: string, invoiceId: string, withOpenItemAccounts: boolean, lock: boolean): Promise<BookingContext | null> {
    const rows = await preparedQuery<Row & { partner_name: string; default_purchase_account_id: string | null; entity_currency: string; open_item_account_ids: string[] | null; version: string }>(
      this.txHost.tx,
      `SELECT ${COLUMNS}, i.xmin::text AS version, p.name AS partner_name, p.default_purchase_account_id, e.currency AS entity_currency,
              CASE WHEN $3::boolean THEN ARRAY(
                SELECT a.id FROM ${LedgerReadSql.chartAccounts('$1')} a
                 WHERE a.subtype = CASE i.direction WHEN 'ar' THEN 'receivable' ELSE 'payable' END
                 ORDER BY a.code, a.id LIMIT 2) END AS open_item_account_ids
         FROM invoices i
         JOIN ${partnerFactsSql('$1')} p ON p.id = i.partner_id
         JOIN ${entityFactsSql('$1')} e ON e.id = i.entity_id
        WHERE i.entity_id = $1 AND i.id = $2${lock ? `
          FOR UPDATE OF i` : ''}`,
      [entityId, invoiceId, withOpenItemAccounts],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      invoice: toInvoice(row),
      partnerName: row.partner_name,
      partnerDefaultPurchaseAccountId: row.default_purchase_account_id,
      entityCurrency: row.entity_currency,
      openItemAccountIds: row.open_item_account_ids,
      version: row.version,
    };
  }

  bookingPrecondition(entityId: string, invoiceId: string, version: string): StatementQuery {
    // xmin changes with every write to the row (a new row version), so no change of any field
    // can slip between the read and the booking, whatever its updated_at.
    return (param) =>
      sql`SELECT 1 FROM invoices WHERE entity_id = ${param(entityId)} AND id = ${param(invoiceId)} AND xmin = ${param(version)}::xid AND book_status = 'unbooked' FOR UPDATE`;
  }

  /** In a savepoint, so that a key taken by a concurrent writer is a conflict, not an aborted transaction. */
  private async guarded<T extends string>(write: () => Promise<unknown>, ok: T): Promise<T | 'id_taken' | 'number_taken'> {
    try {
      await this.txHost.withTransaction(Propagation.Nested, write);
      return ok;
    } catch (error) {
      if (isUniqueViolation(error, NUMBER_KEY)) return 'number_taken';
      if (isUniqueViolation(error, INVOICES_PKEY)) return 'id_taken';
      throw error;
    }
  }

  async insert(invoice: Invoice): Promise<'inserted' | 'id_taken' | 'number_taken'> {
    const columns = ['entity_id', 'id', 'direction', 'book_status', 'ledger_entry_id', 'created_at', ...WRITABLE];
    const values = [invoice.entityId, invoice.id, invoice.direction, invoice.bookStatus, invoice.ledgerEntryId, invoice.createdAt, ...writableValues(invoice)];
    const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
    const sql = `WITH written AS (INSERT INTO invoices (${columns.join(', ')}) VALUES (${placeholders}) RETURNING ${MONTH_IMAGE(1)}),
      month_totals AS (${MONTH_TOTALS_UPSERT('written')})
      SELECT 1`;
    return this.guarded(() => this.txHost.tx.query(sql, values), 'inserted');
  }

  async save(invoice: Invoice): Promise<'saved' | 'number_taken'> {
    const sets = WRITABLE.map((column, i) => `${column} = $${i + 3}`).join(', ');
    // The row locked first: in READ COMMITTED that yields its latest committed version, so the
    // image taken out of the month totals is the one the UPDATE replaces.
    const sql = `WITH before AS (SELECT ${MONTH_IMAGE(-1)} FROM invoices WHERE entity_id = $1 AND id = $2 FOR NO KEY UPDATE),
      after AS (UPDATE invoices SET ${sets} WHERE entity_id = $1 AND id = $2 AND EXISTS (SELECT 1 FROM before) RETURNING ${MONTH_IMAGE(1)}),
      month_totals AS (${MONTH_TOTALS_UPSERT('(SELECT * FROM before WHERE EXISTS (SELECT 1 FROM after) UNION ALL SELECT * FROM after)')})
      SELECT 1`;
    const result = await this.guarded(() => this.txHost.tx.query(sql, [invoice.entityId, invoice.id, ...writableValues(invoice)]), 'saved');
    return result === 'id_taken' ? 'number_taken' : result;
  }

  async delete(entityId: string, invoiceId: string): Promise<void> {
    await this.txHost.tx.query(
      `WITH removed AS (DELETE FROM invoices WHERE entity_id = $1 AND id = $2 RETURNING ${MONTH_IMAGE(-1)}),
       month_totals AS (${MONTH_TOTALS_UPSERT('removed')})
       SELECT 1`,
      [entityId, invoiceId],
    );
  }

  private where(entityId: string, filter: InvoiceListFilter, values: unknown[]): string {
    values.push(entityId);
    const conditions = ['i.entity_id = $1'];
    const add = (sql: string, value: unknown) => {
      values.push(value);
      conditions.push(sql.replace('?', `$${values.length}`));
    };
    if (filter.direction) add('i.direction = ?', filter.direction);
    if (filter.documentKind) add('i.document_kind = ?', filter.documentKind);
    if (filter.partnerId) add('i.partner_id = ?', filter.partnerId);
    if (filter.bookStatus) add('i.book_status = ?', filter.bookStatus);
    if (filter.from) add('i.issue_date >= ?', filter.from);
    if (filter.to) add('i.issue_date <= ?', filter.to);
    return conditions.join(' AND ');
  }

  async list(entityId: string, filter: InvoiceListFilter): Promise<Invoice[]> {
    const values: unknown[] = [];
    const where = this.where(entityId, filter, values);
    return this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE ${where} ORDER BY i.issue_date DESC, i.id DESC`, values);
  }

  /** The page's `search` condition on `values` (its pattern appended), matched ignoring case for every letter. */
  private async searchCondition(search: string, values: unknown[], query: (text: string) => Promise<Array<{ collname: string }>>): Promise<string> {
    // Case-insensitive for every letter (`ÑANDÚ` finds `Ñandú`), whatever the database's locale.
    values.push(`%${search.replace(/[\\%_]/g, '\\$&')}%`);
    const like = `CAST($${values.length} AS text)${await unicodeCollateClause(query)}`;
    return ` AND (i.document_number ILIKE ${like} OR i.description ILIKE ${like} OR EXISTS (
        SELECT 1 FROM ${partnerFactsSql('$1')} p WHERE p.id = i.partner_id AND p.name ILIKE ${like}))`;
  }

  async page(entityId: string, filter: InvoiceListFilter, search: string | undefined, after: InvoicePageKey | null, limit: number): Promise<Invoice[]> {
    const values: unknown[] = [];
    let where = this.where(entityId, filter, values);
    if (after) {
      values.push(after.issueDate, after.id);
      where += ` AND (i.issue_date, i.id) < ($${values.length - 1}::date, $${values.length}::uuid)`;
    }
    if (search) where += await this.searchCondition(search, values, (text) => this.txHost.tx.query(text));
    values.push(limit + 1);
    return this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE ${where} ORDER BY i.issue_date DESC, i.id DESC LIMIT $${values.length}`, values);
  }

  /** D93: every invoice of the list's filter (no cursor), in its order, in batches from a database cursor (cancelled when `signal` aborts). */
  async readAll<R>(entityId: string, filter: InvoiceListFilter, search: string | undefined, signal: AbortSignal, use: (batches: AsyncIterable<Invoice[]>) => Promise<R>): Promise<R> {
    return withReadCursor(this.txHost.tx.connection, signal, async (cursor) => {
      const values: unknown[] = [];
      let where = this.where(entityId, filter, values);
      if (search) where += await this.searchCondition(search, values, (text) => cursor.query<{ collname: string }>(text, []));
      return use(
        (async function* () {
          for await (const rows of cursor.batches<Row>(`SELECT ${COLUMNS} FROM invoices i WHERE ${where} ORDER BY i.issue_date DESC, i.id DESC`, values, 500)) yield rows.map(toInvoice);
        })(),
      );
    });
  }

  async hasAny(entityId: string): Promise<boolean> {
    return ((await this.txHost.tx.query(`SELECT 1 FROM invoices WHERE entity_id = $1 LIMIT 1`, [entityId])) as unknown[]).length > 0;
  }

  async partnerIsNamed(entityId: string, partnerId: string): Promise<boolean> {
    return ((await this.txHost.tx.query(`SELECT 1 FROM invoices WHERE entity_id = $1 AND partner_id = $2 LIMIT 1`, [entityId, partnerId])) as unknown[]).length > 0;
  }

  async bookedBy(entityId: string, entryIds: string[]): Promise<Invoice[]> {
    if (entryIds.length === 0) return [];
    return this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.ledger_entry_id = ANY($2::uuid[]) ORDER BY i.id`, [entityId, entryIds]);
  }

  async summaries(entityId: string, invoiceIds: string[]): Promise<InvoiceLinkSummary[]> {
    if (invoiceIds.length === 0) return [];
    const rows = (await this.txHost.tx.query(
      `SELECT i.id, i.direction, i.document_kind, i.document_number, p.name AS partner_name
         FROM invoices i LEFT JOIN ${partnerFactsSql('$1')} p ON p.id = i.partner_id
        WHERE i.entity_id = $1 AND i.id = ANY($2::uuid[]) ORDER BY i.id`,
      [entityId, [...new Set(invoiceIds)]],
    )) as Array<{ id: string; direction: Invoice['direction']; document_kind: Invoice['documentKind']; document_number: string; partner_name: string | null }>;
    return rows.map((r) => ({ id: r.id, direction: r.direction, documentKind: r.document_kind, documentNumber: r.document_number, partnerName: r.partner_name }));
  }

  /** The open-item lines of booked invoices' entries (one or, split by rounding, two per invoice). */
  async openItemLinesOfBookedEntries(entityId: string, lineIds: string[]): Promise<Set<string>> {
    if (lineIds.length === 0) return new Set();
    const rows = (await this.txHost.tx.query(
      `SELECT l.id FROM ${LedgerReadSql.entityLines('$1')} l
         JOIN invoices i ON i.entity_id = $1 AND i.ledger_entry_id = l.entry_id
        WHERE l.id = ANY($2::uuid[]) AND l.is_open_item`,
      [entityId, lineIds],
    )) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  }

  bookingPart(entityId: string, invoiceId: string, booking: { ledgerEntryId: string; openItemLineId: string }, now: Date): StatementPart {
    return ({ param, written }) =>
      sql`UPDATE invoices SET book_status = 'booked', ledger_entry_id = ${param(booking.ledgerEntryId)}, open_item_line_id = ${param(booking.openItemLineId)}, updated_at = ${param(now)}
           WHERE entity_id = ${param(entityId)} AND id = ${param(invoiceId)} AND ${written}`;
  }

  async setBooking(entityId: string, invoiceId: string, booking: { ledgerEntryId: string; openItemLineId: string }, now: Date, alongside: StatementPart[] = []): Promise<void> {
    const update = this.bookingPart(entityId, invoiceId, booking, now);
    const statement = withParts((host) => sql`${update(host)} RETURNING id`, alongside);
    await this.txHost.tx.query(statement.sql, statement.values);
  }

  async severByEntries(entityId: string, entryIds: string[], restorable: boolean, now: Date): Promise<Array<{ invoiceId: string; entryId: string }>> {
    if (entryIds.length === 0) return [];
    // A reversed entry's booking is kept aside, with the terms it was made on, in the same statement.
    const rows = (await this.txHost.tx.query(
      // The terms are read with the lock, not in RETURNING: Citus takes only plain columns there (D94).
      `WITH booked AS (SELECT i.id, i.ledger_entry_id, i.open_item_line_id, ${BOOKED_TERMS} AS terms
                         FROM invoices i WHERE i.entity_id = $1 AND i.ledger_entry_id = ANY($2::uuid[]) ORDER BY i.id FOR UPDATE),
       severed AS (
         UPDATE invoices i SET book_status = 'unbooked', ledger_entry_id = NULL, open_item_line_id = NULL, updated_at = $4
           FROM booked
          WHERE i.entity_id = $1 AND i.id = booked.id
         RETURNING i.id, booked.ledger_entry_id AS entry_id, booked.open_item_line_id, booked.terms),
       kept AS (
         INSERT INTO invoice_severed_bookings (entity_id, entry_id, invoice_id, open_item_line_id, booked_terms)
         SELECT $1, entry_id, id, open_item_line_id, terms FROM severed WHERE $3
         ON CONFLICT (entity_id, entry_id, invoice_id) DO UPDATE SET open_item_line_id = EXCLUDED.open_item_line_id, booked_terms = EXCLUDED.booked_terms)
       SELECT id, entry_id FROM severed ORDER BY id`,
      [entityId, entryIds, restorable, now],
    )) as Array<{ id: string; entry_id: string }>;
    return rows.map((row) => ({ invoiceId: row.id, entryId: row.entry_id }));
  }

  async lockSeveredFrom(entityId: string, entryIds: string[]): Promise<SeveredBooking[]> {
    if (entryIds.length === 0) return [];
    const rows = (await this.txHost.tx.query(
      `SELECT ${COLUMNS}, s.entry_id AS severed_entry_id, s.open_item_line_id AS severed_open_item_line_id,
              ARRAY(SELECT cur.key FROM jsonb_each(${BOOKED_TERMS}) cur WHERE cur.value IS DISTINCT FROM s.booked_terms -> cur.key ORDER BY cur.key) AS changed_fields
         FROM invoice_severed_bookings s JOIN invoices i ON i.entity_id = s.entity_id AND i.id = s.invoice_id
        WHERE s.entity_id = $1 AND s.entry_id = ANY($2::uuid[]) ORDER BY i.id, s.entry_id FOR UPDATE OF i`,
      [entityId, entryIds],
    )) as Array<Row & { severed_entry_id: string; severed_open_item_line_id: string; changed_fields: string[] }>;
    return rows.map((row) => ({
      invoice: toInvoice(row),
      entryId: row.severed_entry_id,
      openItemLineId: row.severed_open_item_line_id,
      changedFields: row.changed_fields,
    }));
  }

  async forgetSeveredFrom(entityId: string, entryIds: string[]): Promise<void> {
    if (entryIds.length === 0) return;
    await this.txHost.tx.query(`DELETE FROM invoice_severed_bookings WHERE entity_id = $1 AND entry_id = ANY($2::uuid[])`, [entityId, entryIds]);
  }

  async findMany(entityId: string, invoiceIds: string[]): Promise<Invoice[]> {
    if (invoiceIds.length === 0) return [];
    return this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.id = ANY($2::uuid[]) ORDER BY i.id`, [entityId, [...new Set(invoiceIds)]]);
  }

  async byOpenItemLines(entityId: string, lineIds: string[]): Promise<Invoice[]> {
    if (lineIds.length === 0) return [];
    return this.rows(`SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.open_item_line_id = ANY($2::uuid[]) ORDER BY i.id`, [entityId, [...new Set(lineIds)]]);
  }

  async unbookedCounts(entityId: string): Promise<{ ar: number; ap: number }> {
    const rows = (await this.txHost.tx.query(
      `SELECT direction, count(*)::int AS n FROM invoices WHERE entity_id = $1 AND book_status = 'unbooked' GROUP BY direction`,
      [entityId],
    )) as Array<{ direction: 'ar' | 'ap'; n: number }>;
    return { ar: rows.find((r) => r.direction === 'ar')?.n ?? 0, ap: rows.find((r) => r.direction === 'ap')?.n ?? 0 };
  }

  async byDocumentNumbers(entityId: string, documentNumbers: string[], direction?: Invoice['direction']): Promise<Invoice[]> {
    if (documentNumbers.length === 0) return [];
    const values: unknown[] = [entityId, [...new Set(documentNumbers)]];
    if (direction) values.push(direction);
    return this.rows(
      `SELECT ${COLUMNS} FROM invoices i WHERE i.entity_id = $1 AND i.document_number = ANY($2::text[])${direction ? ' AND i.direction = $3' : ''} ORDER BY i.issue_date DESC, i.id DESC`,
      values,
    );
  }

  async linkedToDte(entityId: string, dteId: string): Promise<string | null> {
    const rows = (await this.txHost.tx.query(`SELECT id FROM invoices WHERE entity_id = $1 AND dte_id = $2`, [entityId, dteId])) as Array<{ id: string }>;
    return rows[0]?.id ?? null;
  }
}
