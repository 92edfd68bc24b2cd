import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { BookingHistory, CandidateLimits, RecommendationTarget, RecordKind } from '../application/recommendation-ports';
import type { BookedRecord } from '../domain/similarity';
import { bankAccountsSql, bankMovementsSql } from '../../banking';
import { invoicesSql } from '../../invoices';
import { LedgerReadSql } from '../../ledger';
import { partnerFactsSql } from '../../partners';

/** The other owners' parts (issue 32): live lines of every Book (an entry's own), their tags, the movements and bank accounts. */
const LINES = LedgerReadSql.liveLines({ entity: '$1' });
const TAGS = LedgerReadSql.lineDimensionValues('$1');
const MOVEMENTS = bankMovementsSql('$1');
const ACCOUNTS = bankAccountsSql('$1');

const RESULT_FIRST = `CASE WHEN a.type IN ('income', 'other_income', 'cost_of_goods_sold', 'operating_expense', 'other_expense') THEN 0 ELSE 1 END`;

/** `%word%` patterns for ILIKE, with LIKE's wildcards escaped. */
function patterns(words: string[], ruts: string[]): string[] {
  const escape = (s: string) => s.replace(/[\\%_]/g, '\\$&');
  const rutForms = ruts.flatMap((rut) => {
    const body = rut.split('-')[0];
    return [body, body.replace(/\B(?=(\d{3})+(?!\d))/g, '.')];
  });
  return [...words, ...rutForms].map((w) => `%${escape(w)}%`);
}

/**
 * The read model of booked records: bank movements and invoices with a live booking entry, and
 * that entry's counter line (movements: the line not on the bank account's ledger account;
 * invoices: the line not on the open item, Result Accounts first, then the largest), with its
 * partner and dimension values.
 */
@Injectable()
export class SqlBookingHistory extends BookingHistory {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.txHost.tx.query(sql, values);
  }

  async target(entityId: string, kind: RecordKind, id: string): Promise<RecommendationTarget | null> {
    const rows =
      kind === 'bank_movement'
        ? await this.query<{ tax_id: string | null; description: string; flow: string }>(
            `SELECT m.counterparty_tax_id AS tax_id, concat_ws(' ', m.description, m.counterparty_name, m.reference) AS description, m.side AS flow
               FROM ${bankMovementsSql('$1')} m WHERE m.id = $2`,
            [entityId, id],
          )
        : await this.query<{ tax_id: string | null; description: string; flow: string }>(
            `SELECT p.tax_id, concat_ws(' ', i.description, p.name) AS description, i.direction AS flow
               FROM ${invoicesSql('$1')} i JOIN ${partnerFactsSql('$1')} p ON p.id = i.partner_id
              WHERE i.id = $2`,
            [entityId, id],
          );
    return rows.length ? { kind, id, taxId: rows[0].tax_id, description: rows[0].description, flow: rows[0].flow } : null;
  }

  async similarBooked(entityId: string, q: { kind: RecordKind; flow: string; ruts: string[]; words: string[]; excludeId: string; limit: CandidateLimits }): Promise<BookedRecord[]> {
    const like = patterns(q.words, q.ruts);
    const rows =
      q.kind === 'bank_movement'
        ? await this.query<Row>(
            `SELECT r.tax_id, r.description, c.account_id, c.partner_id,
                    coalesce((SELECT array_agg(d.dimension_value_id::text ORDER BY d.dimension_value_id) FROM ${TAGS} d
                               WHERE d.line_id = c.id), '{}') AS dimension_value_ids
               -- Per bank account, newest first along its (entity, account, date) index: the scan stops at the limit.
               -- Two index walks, newest first, each stopping at its limit: the counterparty's RUT (its partial index),
               -- and per bank account the description words along the (entity, account, date) index.
               FROM (SELECT u.* FROM (
                       (SELECT m.id, m.ledger_entry_id, m.bank_account_id, m.counterparty_tax_id AS tax_id,
                               concat_ws(' ', m.description, m.counterparty_name, m.reference) AS description, m.movement_date AS day
                          FROM ${MOVEMENTS} m
                         WHERE m.counterparty_tax_id = ANY($4::text[]) AND m.ledger_entry_id IS NOT NULL AND m.side = $2 AND m.id <> $3
                         ORDER BY m.movement_date DESC, m.id DESC
                         LIMIT $6)
                       UNION
                       (SELECT w.* FROM ${ACCOUNTS} ba
                          CROSS JOIN LATERAL (
                            SELECT m.id, m.ledger_entry_id, m.bank_account_id, m.counterparty_tax_id AS tax_id,
                                   concat_ws(' ', m.description, m.counterparty_name, m.reference) AS description, m.movement_date AS day
                              FROM ${MOVEMENTS} m
                             WHERE m.bank_account_id = ba.id AND m.ledger_entry_id IS NOT NULL AND m.side = $2 AND m.id <> $3
                               AND (m.description ILIKE ANY($5::text[]) OR m.counterparty_name ILIKE ANY($5::text[]))
                             ORDER BY m.movement_date DESC, m.id DESC
                             LIMIT $7) w
                         ORDER BY w.day DESC, w.id DESC
                         LIMIT $7)) u) r
               JOIN ${ACCOUNTS} ba ON ba.id = r.bank_account_id
               JOIN LATERAL (SELECT l.id, l.account_id, l.partner_id FROM ${LINES} l
                              WHERE l.entry_id = r.ledger_entry_id AND l.account_id <> ba.ledger_account_id
                              ORDER BY l.line_no LIMIT 1) c ON true
              ORDER BY r.day DESC, r.id DESC`,
            [entityId, q.flow, q.excludeId, q.ruts, like, q.limit.byRut, q.limit.byWords],
          )
        : await this.query<Row>(
            `SELECT r.tax_id, r.description, c.account_id, coalesce(c.partner_id, r.partner_id) AS partner_id,
                    coalesce((SELECT array_agg(d.dimension_value_id::text ORDER BY d.dimension_value_id) FROM ${TAGS} d
                               WHERE d.line_id = c.id), '{}') AS dimension_value_ids
               FROM (SELECT i.id, i.ledger_entry_id, i.open_item_line_id, i.partner_id, p.tax_id, concat_ws(' ', i.description, p.name) AS description, i.issue_date AS day
                       FROM ${invoicesSql('$1')} i
                       JOIN ${partnerFactsSql('$1')} p ON p.id = i.partner_id
                      WHERE i.book_status = 'booked' AND i.direction = $2 AND i.id <> $3
                        AND (p.tax_id = ANY($4::text[]) OR i.description ILIKE ANY($5::text[]) OR p.name ILIKE ANY($5::text[]))
                      ORDER BY i.issue_date DESC, i.id DESC
                      LIMIT $6) r
               JOIN LATERAL (SELECT l.id, l.account_id, l.partner_id FROM ${LINES} l
                               JOIN ${LedgerReadSql.chartAccounts('$1')} a ON a.id = l.account_id
                              WHERE l.entry_id = r.ledger_entry_id AND l.id <> r.open_item_line_id
                              ORDER BY ${RESULT_FIRST}, l.amount DESC, l.line_no LIMIT 1) c ON true
              ORDER BY r.day DESC`,
            [entityId, q.flow, q.excludeId, q.ruts, like, q.limit.byRut + q.limit.byWords],
          );
    return rows.map((r) => ({ taxId: r.tax_id, description: r.description, ledgerAccountId: r.account_id, partnerId: r.partner_id, dimensionValueIds: r.dimension_value_ids }));
  }
}

interface Row {
  tax_id: string | null;
  description: string;
  account_id: string;
  partner_id: string | null;
  dimension_value_ids: string[];
}
