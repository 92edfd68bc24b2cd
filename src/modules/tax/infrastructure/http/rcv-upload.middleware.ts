import { Injectable, NestMiddleware } from '@nestjs/common';
import { raw, type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { DomainError, validationError } from '../../../../../libs/shared-kernel/src';
import { deferUpload } from '../../../../platform/imports/deferred-upload';
import { IMPORT_MAX_BYTES, IMPORT_MAX_TEXT } from '../../../../platform/imports/import-limits';

const tooLarge = () => new DomainError('PAYLOAD_TOO_LARGE_ERROR', `The RCV file is larger than the limit of ${IMPORT_MAX_TEXT}`, { limitBytes: IMPORT_MAX_BYTES });

export interface RcvUploadRequest extends Request {
  rcvFile?: Buffer;
  rcvUploadError?: DomainError;
}

const multipart = multer({ storage: multer.memoryStorage(), limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11 } }).single('file');
const csvBody = raw({ type: () => true, limit: IMPORT_MAX_BYTES });

function uploadError(error: unknown): DomainError {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge();
    return validationError(error.field ?? 'file', `is not an RCV upload: ${error.message}`);
  }
  const status = (error as { status?: number }).status;
  if ((error as { type?: string }).type === 'entity.too.large' || status === 413) return tooLarge();
  return validationError('file', 'could not be read from the request');
}

/**
 * D92: the RCV file arrives as the `file` field of a `multipart/form-data` body or as a
 * `text/csv` body, up to 5 MB. Read once the guards let the caller in (D2b: deferUpload,
 * UploadBodyGuard); what went wrong is kept for the handler, so the caller's access and the
 * Entity's jurisdiction are judged first. Other content types go on to the JSON body rules.
 */
@Injectable()
export class RcvUploadMiddleware implements NestMiddleware {
  use(request: RcvUploadRequest, response: Response, next: NextFunction): void {
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    const done = (error?: unknown) => {
      if (error) request.rcvUploadError = uploadError(error);
      else if (type.startsWith('multipart/form-data')) request.rcvFile = request.file?.buffer;
      else if (Buffer.isBuffer(request.body)) request.rcvFile = request.body;
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
