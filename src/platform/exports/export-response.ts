import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { Response } from 'express';
import { sendPieces } from '../http/json-stream';
import { csvPieces } from './csv-writer';
import { EXPORT_FORMATS, type ExportFormat, type FileFormat, type TableExport } from './table';
import { xlsxPieces } from './xlsx-writer';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The `format` query parameter of a route that exports (D93): `json` (the default), `csv` or
 * `xlsx`; anything else is 400 VALIDATION_ERROR (the whitelisting pipe refuses it like any bad
 * query value). Put it on the route's query class: `@ExportFormatParam() format?: ExportFormat;`.
 */
export const ExportFormatParam = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'json', description: 'D93: `csv` (RFC 4180, UTF-8 with BOM) or `xlsx` (Office Open XML) answer a file to download' }),
    IsOptional(),
    IsIn(EXPORT_FORMATS as ExportFormat[]),
  );

/** The file format asked for, or null for the JSON answer. */
export function fileFormat(format: string | undefined): FileFormat | null {
  return format === 'csv' || format === 'xlsx' ? format : null;
}

/** `Content-Disposition: attachment` with the name in plain ASCII and in RFC 5987 form. */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Writes `table` to `res` as a CSV or XLSX file, streamed (D2a, D93): its rows are pulled batch by
 * batch as the socket drains, so memory holds one batch whatever the file's size; a client that
 * goes stops the pulling (the row source's `finally` runs: a database cursor is closed, its query
 * cancelled by the signal the route gave it). Status and headers go with the first bytes, so a
 * refusal thrown before the rows start is an ordinary error answer.
 */
export function sendTableExport<R>(res: Response, format: FileFormat, table: TableExport<R>): Promise<void> {
  const fileName = `${table.fileName}.${format}`;
  const begin = () => {
    res.status(200);
    res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_MEDIA_TYPE);
    res.setHeader('Content-Disposition', disposition(fileName));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
  };
  return sendPieces(res, format === 'csv' ? csvPieces(table) : xlsxPieces(table), begin);
}

/**
 * A paged list's whole filtered range as a file (D93): the batches its database cursor gives,
 * each presented as it comes, written as `sendTableExport` writes any table.
 */
export function sendListExport<B, R>(res: Response, format: FileFormat, batches: AsyncIterable<B[]>, present: (batch: B[]) => R[] | Promise<R[]>, table: Omit<TableExport<R>, 'rows' | 'csvRecords'>): Promise<void> {
  const rows = (async function* () {
    for await (const batch of batches) yield await present(batch);
  })();
  return sendTableExport(res, format, { ...table, rows });
}

/** OpenAPI: the route answers JSON, or with `format` a CSV or XLSX file (D93). */
export const ApiExportable = () => applyDecorators(ApiProduces('application/json', 'text/csv', XLSX_MEDIA_TYPE));

/**
 * A route answered whole: its JSON body, or with `format=csv|xlsx` that body as a file. The body
 * is built first, so every refusal is an ordinary error answer. For `@Res()` handlers.
 */
export async function answerJsonOrFile<B, R>(res: Response, format: string | undefined, body: () => Promise<B>, file: (body: B) => Promise<TableExport<R>> | TableExport<R>): Promise<void> {
  const answer = await body();
  const asFile = fileFormat(format);
  if (!asFile) {
    res.status(200).json(answer);
    return;
  }
  await sendTableExport(res, asFile, await file(answer));
}
