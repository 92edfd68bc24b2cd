import { Injectable } from '@nestjs/common';
import { importParser, ImportParsePool } from '../../../platform/imports/parse-pool';
import { DteXmlReader } from '../application/dte-xml-reader';
import type { DteDocument } from '../domain/dte';

/** sii-dte-xml-reader.ts's `parse`, run by an import-parsing worker. */
const DTE_XML_PARSER = importParser<DteDocument[]>(__dirname, 'sii-dte-xml-reader');

/**
 * D2b: the DTE file is read by SiiDteXmlReader in a worker thread (platform/imports), so that
 * no other request waits on a 5 MB parse; its refusals are the reader's (400 naming the
 * document and field), a failed worker is 503.
 */
@Injectable()
export class OffThreadDteXmlReader extends DteXmlReader {
  constructor(private readonly pool: ImportParsePool) {
    super();
  }

  read(body: Buffer): Promise<DteDocument[]> {
    return this.pool.run(DTE_XML_PARSER, body);
  }
}
