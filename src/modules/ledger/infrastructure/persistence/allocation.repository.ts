import { exactAmount } from '../../../../../libs/shared-kernel/src';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { AllocationRow, AllocationRepository, ListedLine, OpenItemFilter, OpenItemSummary } from '../../domain/entry-ports';
import { AGGREGATED_LINE_COLUMNS, LINE_AGGREGATES_UPSERT, LINE_COLUMNS, LedgerSqlStore, NIL_BOOK, toAllocation, toLine } from './ledger-sql';
import { PartnerDirectory } from '../../application/partner-directory';

/** The lines shiftAllocated() moved, after (+1) and before (-1): only the allocated amount differs. */
const BEFORE_AND_AFTER = `(SELECT 1 AS sign, ${AGGREGATED_LINE_COLUMNS} FROM moved
   UNION ALL SELECT -1, ${AGGREGATED_LINE_COLUMNS.replace('allocated_amount', 'allocated_amount - moved')} FROM moved)`;

/** Allocations between open-item lines and the open-item reads (D38, D39). */
@Injectable()
export class SqlAllocationRepository extends LedgerSqlStore implements AllocationRepository {
  constructor(
    txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    auditContext: AuditContext,
    private readonly partners: PartnerDirectory,
  ) {
    super(txHost, auditContext);
  }

  async allocationsOfLines(entityId: string, lineIds: string[]): Promise<AllocationRow[]> {
    if (lineIds.length === 0) return [];
    const rows = await this.query(
      `SELECT entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
         FROM reconciliation_allocations
        WHERE entity_id = $1 AND (debit_line_id = ANY($2::uuid[]) OR credit_line_id = ANY($2::uuid[]))
        ORDER BY created_at, id`,
      [entityId, lineIds],
    );
    return rows.map(toAllocation);
  }

  async findAllocation(entityId: string, allocationId: string): Promise<AllocationRow | null> {
    const [row] = await this.query(
      `SELECT entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
         FROM reconciliation_allocations WHERE entity_id = $1 AND id = $2`,
      [entityId, allocationId],
    );
    return row ? toAllocation(row) : null;
  }

  private openItemWhere(entityId: string, filter: Omit<OpenItemFilter, 'after' | 'limit'>, withPartner: boolean): { where: string[]; values: unknown[] } {
    const where = [`l.entity_id = $1`, `l.account_id = $2`, `l.is_open_item`, `l.status IN ('active', 'reversed')`];
    const values: unknown[] = [entityId, filter.accountId];
    if (!filter.includeSettled) where.push('l.allocated_amount < l.amount');
    if (filter.bookId === null) where.push('l.book_id IS NULL');
    else {
      values.push(filter.bookId);
      where.push(`(l.book_id IS NULL OR l.book_id = $${values.length})`);
    }
    if (withPartner && filter.partnerId) {
      values.push(filter.partnerId);
      where.push(`l.partner_id = $${values.length}`);
    }
    return { where, values };
  }

  /** Keyset page over (entry date, line id), oldest first: what is due first comes first. */
  async openItemLines(entityId: string, filter: OpenItemFilter): Promise<ListedLine[]> {
    const { where, values } = this.openItemWhere(entityId, filter, true);
    if (filter.after) {
      values.push(filter.after.entryDate, filter.after.id);
      where.push(`(l.entry_date, l.id) > ($${values.length - 1}::date, $${values.length}::uuid)`);
    }
    values.push(filter.limit);
    const rows = await this.query(
      `SELECT ${LINE_COLUMNS}, e.memo FROM ledger_lines l JOIN ledger_entries e ON e.entity_id = l.entity_id AND e.id = l.entry_id
        WHERE ${where.join(' AND ')} ORDER BY l.entry_date, l.id LIMIT $${values.length}`,
      values,
    );
    const tags = await this.tagsOf(entityId, rows.map((r) => r.id as string));
    return rows.map((row) => toLine(row, tags.get(row.id as string) ?? []));
  }

  /**
   * Totals of the whole filtered set (not the page), and the partners present without the partner
   * filter: read from ledger_open_item_totals (per account, Book, partner and slot, kept by every
   * statement that writes lines, LINE_AGGREGATES_UPSERT), so O(partners), not O(open lines) (issue 25).
   */
  async openItemSummary(entityId: string, filter: Omit<OpenItemFilter, 'after' | 'limit'>): Promise<OpenItemSummary> {
    const count = filter.includeSettled ? 't.line_count' : 't.open_count';
    // One statement: the figures per partner with the partner's name (PartnerDirectoryPort.namesSql),
    // in the options' order, by name in code point order (COLLATE "C", as compareText), the lines
    // without a partner (and a partner without a name) last, then by id.
    const rows = await this.query<{ partner_key: string; line_count: number; open_total: string; partner_name: string | null }>(
      `SELECT g.partner_key, g.line_count, g.open_total, n.name AS partner_name
         FROM (SELECT t.partner_key, sum(${count})::int AS line_count, sum(t.open_total)::text AS open_total
                 FROM ledger_open_item_totals t
                WHERE t.entity_id = $1 AND t.account_id = $2 AND t.book_key IN ('${NIL_BOOK}'::uuid, coalesce($3::uuid, '${NIL_BOOK}'::uuid))
                GROUP BY t.partner_key HAVING sum(${count}) > 0) g
         LEFT JOIN ${this.partners.namesSql('$1')} n ON n.id = g.partner_key
        ORDER BY n.name COLLATE "C" NULLS LAST, g.partner_key`,
      [entityId, filter.accountId, filter.bookId],
    );
    const partnerOf = (key: string) => (key === NIL_BOOK ? null : key);
    const selected = filter.partnerId ? rows.filter((r) => partnerOf(r.partner_key) === filter.partnerId) : rows;
    return {
      // D6a: summed exactly; a total JSON cannot hold exactly is a 409 naming it.
      openTotal: exactAmount(selected.reduce((sum, r) => sum + BigInt(r.open_total), 0n), 'openTotal'),
      lineCount: selected.reduce((sum, r) => sum + r.line_count, 0),
      partnerOptions: rows.map((r, i) => {
        // Checked through exactAmount only when it is not already an exact number (its field name is built then).
        const openTotal = Number(r.open_total);
        return {
          partnerId: partnerOf(r.partner_key),
          partnerName: r.partner_name,
          lineCount: r.line_count,
          openTotal: Number.isSafeInteger(openTotal) ? openTotal : exactAmount(r.open_total, `partnerOptions[${i}].openTotal`),
        };
      }),
    };
  }

  async insertAllocations(allocations: AllocationRow[]): Promise<void> {
    this.requireTransaction();
    if (allocations.length === 0) return;
    const entityId = allocations[0].entityId;
    await this.query(
      `INSERT INTO reconciliation_allocations (entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at)
       SELECT $1, a.id, a.debit_line_id, a.credit_line_id, a.account_id, a.amount, a.kind, a.created_at, a.created_at
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::timestamptz[])
           AS a(id, debit_line_id, credit_line_id, account_id, amount, kind, created_at)`,
      [
        entityId,
        allocations.map((a) => a.id),
        allocations.map((a) => a.debitLineId),
        allocations.map((a) => a.creditLineId),
        allocations.map((a) => a.accountId),
        allocations.map((a) => a.amount),
        allocations.map((a) => a.kind),
        allocations.map((a) => a.createdAt),
      ],
    );
    await this.shiftAllocated(entityId, allocations, 1);
  }

  async removeAllocations(entityId: string, allocations: AllocationRow[]): Promise<void> {
    this.requireTransaction();
    if (allocations.length === 0) return;
    // Only what this statement deleted is given back: an allocation another transaction removed
    // after the caller read it (unbooking the other side, a DELETE) was given back there. Read
    // through a SELECT: TypeORM answers a bare DELETE ... RETURNING as [rows, rowCount].
    const deleted = await this.query(
      `WITH gone AS (
         DELETE FROM reconciliation_allocations WHERE entity_id = $1 AND id = ANY($2::uuid[])
         RETURNING entity_id, id, debit_line_id, credit_line_id, account_id, amount, kind, created_at, updated_at
       ) SELECT * FROM gone`,
      [entityId, allocations.map((a) => a.id)],
    );
    if (deleted.length > 0) await this.shiftAllocated(entityId, deleted.map(toAllocation), -1);
  }

  /**
   * Keeps each line's allocated amount equal to the sum of its allocations (the check keeps it
   * within the amount), and the open-item totals with it, in the same statement: each line's image
   * after the UPDATE is added and the image before (the same row less the amount this statement
   * moved) taken away, exact whatever committed meanwhile (LINE_AGGREGATES_UPSERT).
   */
  private async shiftAllocated(entityId: string, allocations: AllocationRow[], sign: 1 | -1): Promise<void> {
    const perLine = new Map<string, number>();
    for (const a of allocations) {
      perLine.set(a.debitLineId, (perLine.get(a.debitLineId) ?? 0) + a.amount);
      perLine.set(a.creditLineId, (perLine.get(a.creditLineId) ?? 0) + a.amount);
    }
    await this.query(
      `WITH moved AS (
         UPDATE ledger_lines l SET allocated_amount = l.allocated_amount + $2 * d.amount
           FROM unnest($3::uuid[], $4::bigint[]) AS d(line_id, amount)
          WHERE l.entity_id = $1 AND l.id = d.line_id
         RETURNING ${AGGREGATED_LINE_COLUMNS.split(', ').map((c) => `l.${c}`).join(', ')}, $2 * d.amount AS moved
       ), ${LINE_AGGREGATES_UPSERT(BEFORE_AND_AFTER)}
       SELECT count(*)::int AS updated FROM moved`,
      [entityId, sign, [...perLine.keys()], [...perLine.values()]],
    );
  }
}
