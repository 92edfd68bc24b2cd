import { IMPORT_MAX_BYTES } from '../../../platform/imports/import-limits';
import type { DteDocument } from '../domain/dte';

/**
 * Port: reads the DTE documents of one SII XML file (a `DTE`, an `EnvioDTE` or an
 * `EnvioBOLETA`), or refuses the whole file with a DomainError (400) naming the position or the
 * document and field. Pure: no database, no network (nothing external is ever fetched).
 */
export abstract class DteXmlReader {
  abstract read(body: Buffer): Promise<DteDocument[]>;
}

/** D65a, D2b: the largest file the import takes, 5 MB = 5,242,880 bytes (inclusive). */
export const DTE_IMPORT_MAX_BYTES = IMPORT_MAX_BYTES;
