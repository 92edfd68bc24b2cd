import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { DomainError, newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { EntitiesService } from '../../entities';
import { Dte, dteDirection } from '../domain/dte';
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
  ) {}

  /**
   * D63, D65a: the whole file in the caller's one transaction: every document is read and judged
   * before anything is written; duplicates (issuer RUT, type, folio), already stored or repeated
   * in the file, are skipped.
   */
  @Transactional()
  async import(entityId: string, body: Buffer): Promise<DteImportResult> {
    const documents = this.reader.read(body);
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
