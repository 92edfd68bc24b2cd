import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newTimeOrderedId } from '../../../../libs/shared-kernel/src';
import { AuditContext } from '../../../platform/audit/audit-context';
import { AuditRecorder } from '../../../platform/audit/audit-recorder';
import { Clock } from '../../../platform/clock/clock';
import { SiiPeriodDocuments } from '../../invoices';
import { PartnersService } from '../../partners';
import { ReferenceDataService } from '../../reference';
import { F29Codes, F29Options, F29Sum, propuestaF29 } from '../domain/f29';
import { RcvFileReader, RcvImport, RcvImportRepository } from '../domain/ports';
import { CurrencyExponents, inPesos, purchaseSalesRegister, RegisterRow, RegisterSummary } from '../domain/purchase-sales-register';
import { reconcile, ReconciliationRow, ReconciliationStatus } from '../domain/rcv-reconciliation';
import { rcvImportNotFound } from '../domain/tax-errors';
import { invoiceDirectionOf, TaxDirection, TaxPeriod } from '../domain/tax-period';

export interface PurchaseSalesRegister {
  period: string;
  direction: TaxDirection;
  rows: RegisterRow[];
  summary: RegisterSummary[];
}

export interface RcvReconciliation {
  period: string;
  direction: TaxDirection;
  counts: Record<ReconciliationStatus, number>;
  rows: ReconciliationRow[];
}

/**
 * D92: the Chilean tax books of an Entity in CL keeping CLP (the route's guard checks it first):
 * the Registro de Compras y Ventas from the invoices, the SII's RCV files and their
 * reconciliation with it, and the propuesta F29.
 */
@Injectable()
export class TaxBooksService {
  constructor(
    private readonly documents: SiiPeriodDocuments,
    private readonly partners: PartnersService,
    private readonly reference: ReferenceDataService,
    private readonly imports: RcvImportRepository,
    private readonly reader: RcvFileReader,
    private readonly clock: Clock,
    private readonly auditContext: AuditContext,
    private readonly auditRecorder: AuditRecorder,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  private readonly exponents: CurrencyExponents = {
    exponentOf: (currency) => {
      const found = this.reference.findCurrency(currency);
      if (!found) throw new Error(`currency ${currency} of an invoice is not a known ISO 4217 currency`);
      return found.minorUnits;
    },
  };

  /** Item 1 (two queries: the period's invoices from their issue-date index, then their partners). */
  async register(entityId: string, period: TaxPeriod, direction: TaxDirection): Promise<PurchaseSalesRegister> {
    const documents = await this.documents.documents(entityId, invoiceDirectionOf(direction), period.from, period.to);
    const partners = await this.partners.identities(entityId, documents.map((d) => d.partnerId));
    return { period: period.period, direction, ...purchaseSalesRegister(documents, partners, this.exponents) };
  }

  /** Item 3: from the month's totals kept with the invoices (those in CLP), the foreign-currency invoices converted one by one. */
  async f29(entityId: string, period: TaxPeriod, options: F29Options): Promise<{ period: string; codes: F29Codes }> {
    const totals = await this.documents.monthTotals(entityId, period.from, period.to);
    const sums: F29Sum[] = totals.map((total) => ({
      direction: total.direction,
      dteType: total.dteType,
      count: total.count,
      ...inPesos({ ...total, currency: total.currency ?? 'CLP' }, this.exponents),
    }));
    return { period: period.period, codes: propuestaF29(sums, options) };
  }

  /**
   * Item 2, the import: the file is read (streamed, bounded) before any transaction opens; then
   * the import, its documents and the route's audit row (D18) are written in one transaction.
   */
  async importRcv(entityId: string, period: TaxPeriod, direction: TaxDirection, file: Buffer): Promise<RcvImport> {
    const rows = await this.reader.read(file);
    const rcvImport: RcvImport = { id: newTimeOrderedId(), period: period.period, direction, rowCount: rows.length, createdAt: this.clock.now() };
    return this.txHost.withTransaction(async () => {
      await this.imports.insert(entityId, rcvImport, rows);
      const audit = this.auditContext.takeStatementRow(rcvImport.id);
      if (audit) await this.auditRecorder.record(audit);
      return rcvImport;
    });
  }

  /** Item 2, the reconciliation of the latest import with the register. */
  async reconciliation(entityId: string, period: TaxPeriod, direction: TaxDirection): Promise<RcvReconciliation> {
    const latest = await this.imports.latest(entityId, period.period, direction);
    if (!latest) throw rcvImportNotFound(period.period, direction);
    const [sii, register] = [await this.imports.rows(entityId, latest.id), await this.register(entityId, period, direction)];
    const books = register.rows.map((row) => ({ ...row, partnerTaxId: row.partnerTaxId ?? '' }));
    return { period: period.period, direction, ...reconcile(sii, books) };
  }
}
