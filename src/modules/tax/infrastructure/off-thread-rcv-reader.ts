import { Injectable } from '@nestjs/common';
import { importParser, ImportParsePool } from '../../../platform/imports/parse-pool';
import type { RcvRow } from '../domain/rcv-file';
import { RcvFileReader } from '../domain/ports';

/** rcv-csv-reader.ts's `parse`, run by an import-parsing worker. */
const RCV_PARSER = importParser<RcvRow[]>(__dirname, 'rcv-csv-reader');

/**
 * D2b: the RCV file is read by RcvCsvReader in a worker thread (platform/imports), so that no
 * other request waits on a 5 MB file; its refusals are the reader's (400 naming the line), a
 * failed worker is 503.
 */
@Injectable()
export class OffThreadRcvReader extends RcvFileReader {
  constructor(private readonly pool: ImportParsePool) {
    super();
  }

  read(file: Buffer): Promise<RcvRow[]> {
    return this.pool.run(RCV_PARSER, file);
  }
}
