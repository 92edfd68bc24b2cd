import { Injectable, NestMiddleware } from '@nestjs/common';
import { raw, type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { DomainError, validationError } from '../../../../../libs/shared-kernel/src';
import { deferUpload } from '../../../../platform/imports/deferred-upload';
import { IMPORT_MAX_BYTES, IMPORT_MAX_TEXT } from '../../../../platform/imports/import-limits';

/**
 * A statement file is larger than a JSON body can be (D2's 1 MB): a 50,000-row statement is
 * about 2.5 MB. The import takes up to 5 MB = 5,242,880 bytes (D2b), as the DTE import does
 * (D65a); past it, 413.
 */
export const STATEMENT_MAX_BYTES = IMPORT_MAX_BYTES;

const tooLarge = () =>
  new DomainError('PAYLOAD_TOO_LARGE_ERROR', `The statement file is larger than the limit of ${IMPORT_MAX_TEXT}`, { limitBytes: STATEMENT_MAX_BYTES });

export interface StatementUploadRequest extends Request {
  statementFile?: Buffer;
  statementUploadError?: DomainError;
}

const multipart = multer({ storage: multer.memoryStorage(), limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 10, parts: 11 } }).single('file');
const csvBody = raw({ type: () => true, limit: STATEMENT_MAX_BYTES });

function uploadError(error: unknown): DomainError {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge();
    return validationError(error.field ?? 'file', `is not a statement upload: ${error.message}`);
  }
  const status = (error as { status?: number; type?: string }).status;
  if ((error as { type?: string }).type === 'entity.too.large' || status === 413) return tooLarge();
  return validationError('file', 'could not be read from the request');
}

/**
 * D78: the statement arrives as the `file` field of a `multipart/form-data` body or as a
 * `text/csv` body. Read once the guards let the caller in (D2b: deferUpload, UploadBodyGuard);
 * what went wrong is kept for the handler to answer, so the caller's access is judged first. Other content types go on to
 * the JSON body rules.
 */
@Injectable()
export class StatementUploadMiddleware implements NestMiddleware {
  use(request: StatementUploadRequest, response: Response, next: NextFunction): void {
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    const done = (error?: unknown) => {
      if (error) request.statementUploadError = uploadError(error);
      else if (type.startsWith('multipart/form-data')) request.statementFile = request.file?.buffer;
      else if (Buffer.isBuffer(request.body)) request.statementFile = request.body;
      if (request.body === undefined || Buffer.isBuffer(request.body)) request.body = {};
    };
    const parser = type.startsWith('multipart/form-data') ? multipart : type.startsWith('text/csv') ? csvBody : null;
    if (parser) {
      // D2b: read once the route's guards let the caller in (UploadBodyGuard); until then the
      // JSON body guard sees a body that a parser takes.
      request.body = {};
      deferUpload(request, (read) => {
        request.body = undefined;
        parser(request, response, (error?: unknown) => {
          done(error);
          read();
        });
      });
    }
    next();
  }
}
