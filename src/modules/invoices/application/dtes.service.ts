import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { DomainError, newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { EntitiesService } from '../../entities';
import { Dte, DteDocument, dteDirection } from '../domain/dte';
import { DtePageFilter, DteRepository } from '../domain/ports';
import { DteXmlReader } from './dte-xml-reader';
import { issueDatePage } from './issue-date-pages';

export interface DteImportResult {
  importedCount: number;
  skippedCount: number;
  /** The DTEs imported by this file (the skipped duplicates are not repeated). */
  dtes: Dte[];
}

@Injectable()
export class DtesService {
  constructor(
    private readonly dtes: DteRepository,
    private readonly reader: DteXmlReader,
    private readonly entities: EntitiesService,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditRow: OfferedAuditRow,
  ) {}

  /**
   * D63, D65a: every document is read and judged before anything is written; duplicates (issuer
   * RUT, type, folio), already stored or repeated in the file, are skipped. D2b: the file is
   * parsed (a bounded stream, in an import-parsing worker) before the transaction opens, so no
   * pooled connection waits on it; the writes and the request's audit row then commit together.
   */
  async import(entityId: string, body: Buffer): Promise<DteImportResult> {
    const documents = await this.reader.read(body);
    return this.txHost.withTransaction(async () => {
      const result = await this.store(entityId, documents);
      await this.auditRow.record(entityId);
      return result;
    });
  }

  private async store(entityId: string, documents: DteDocument[]): Promise<DteImportResult> {
    const entity = (await this.entities.get(entityId)).snapshot();
    const seen = new Set<string>();
    const fresh: Array<(typeof documents)[number] & { id: string; direction: Dte['direction'] }> = [];
    documents.forEach((document, i) => {
      const direction = dteDirection(document, entity.taxId);
      if (direction === null) {
        const message = `document ${i + 1} (folio ${document.folio}): neither RUTEmisor ${document.issuerTaxId} nor RUTRecep ${document.receiverTaxId} is the Entity's RUT ${entity.taxId}`;
        throw new DomainError('VALIDATION_ERROR', message, {
          errors: [{ path: 'Encabezado.Receptor.RUTRecep', message }],
          document: i + 1,
          folio: document.folio,
          field: 'Encabezado.Receptor.RUTRecep',
        });
      }
      const key = `${document.issuerTaxId}|${document.dteType}|${document.folio}`;
      if (seen.has(key)) return;
      seen.add(key);
      fresh.push({ ...document, id: newId(), direction });
    });
    const imported = await this.dtes.insertNew(entityId, fresh, this.clock.now());
    return { importedCount: imported.length, skippedCount: documents.length - imported.length, dtes: imported };
  }

  list(entityId: string, filter: DtePageFilter): Promise<Dte[]> {
    return this.dtes.list(entityId, filter);
  }

  page(entityId: string, query: DtePageFilter & { cursor?: string; limit?: number }): Promise<{ rows: Dte[]; nextCursor: string | null }> {
    return issueDatePage(query, (after, limit) => this.dtes.page(entityId, query, after, limit));
  }
}
