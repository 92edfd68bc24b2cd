import { Injectable } from '@nestjs/common';
import { importParser, ImportParsePool } from '../../../platform/imports/parse-pool';
import { StatementFileReader } from '../application/banking-ports';
import type { StatementRow } from '../domain/statement';

/** csv-statement-reader.ts's `parse`, run by an import-parsing worker. */
const STATEMENT_PARSER = importParser<StatementRow[]>(__dirname, 'csv-statement-reader');

/**
 * D2b: the statement is read and judged by CsvStatementReader in a worker thread
 * (platform/imports), so that no other request waits on a 5 MB file; its refusals are the
 * reader's (400 naming the row), a failed worker is 503.
 */
@Injectable()
export class OffThreadStatementReader extends StatementFileReader {
  constructor(private readonly pool: ImportParsePool) {
    super();
  }

  read(file: Buffer): Promise<StatementRow[]> {
    return this.pool.run(STATEMENT_PARSER, file);
  }
}
