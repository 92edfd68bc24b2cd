import type { RcvRow } from './rcv-file';
import type { TaxDirection } from './tax-period';

export interface RcvImport {
  id: string;
  period: string;
  direction: TaxDirection;
  rowCount: number;
  createdAt: Date;
}

/** The imported RCV files and their documents. */
export abstract class RcvImportRepository {
  abstract insert(entityId: string, rcvImport: RcvImport, rows: RcvRow[]): Promise<void>;
  /** The latest import of the period and direction, or null. */
  abstract latest(entityId: string, period: string, direction: TaxDirection): Promise<RcvImport | null>;
  abstract rows(entityId: string, importId: string): Promise<RcvRow[]>;
}

/** Reads an RCV file (bytes) as documents, as a bounded stream; a refusal names the line. */
export abstract class RcvFileReader {
  abstract read(file: Buffer): Promise<RcvRow[]>;
}
