import type { DteDocument } from '../domain/dte';

/**
 * Port: reads the DTE documents of one SII XML file (a `DTE`, an `EnvioDTE` or an
 * `EnvioBOLETA`), or refuses the whole file with a DomainError (400) naming the position or the
 * document and field. Pure: no database, no network (nothing external is ever fetched).
 */
export abstract class DteXmlReader {
  abstract read(body: Buffer): DteDocument[];
}

/** D65a: the largest file the import takes. */
export const DTE_IMPORT_MAX_BYTES = 5_000_000;
