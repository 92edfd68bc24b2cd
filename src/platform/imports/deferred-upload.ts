import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { raw, type Request, type Response } from 'express';
import multer from 'multer';
import { DomainError, validationError } from '../../../libs/shared-kernel/src';
import { IMPORT_MAX_BYTES, IMPORT_MAX_TEXT } from './import-limits';

/** A request whose upload (an import's file) is read only when the route's guards let it through. */
export interface DeferredUploadRequest extends Request {
  readUpload?: () => Promise<void>;
}

/**
 * D2b: an import's body (up to 5 MB) is not read before the caller is known to be let in. The
 * upload middleware leaves the bytes in the socket and gives the request `readUpload` (`read`
 * runs once, whoever asks); the route's last guard, UploadBodyGuard, reads them after
 * authentication, access, rate limits and the heavy-work slot (D2a, D2b) have passed. A request
 * refused before (401, 403, 404, 429) is answered without its body ever being held: Node
 * discards the unread bytes as they come. `read` calls back with an error to throw (a 413 or a
 * malformed upload), or none.
 */
export function deferUpload(request: Request, read: (done: (error?: unknown) => void) => void): void {
  let reading: Promise<void> | null = null;
  (request as DeferredUploadRequest).readUpload = () =>
    (reading ??= new Promise<void>((resolve, reject) => read((error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()))));
}

/** Reads a deferred upload (deferUpload); runs after every other guard of an import route (HeavyImport). */
@Injectable()
export class UploadBodyGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await context.switchToHttp().getRequest<DeferredUploadRequest>().readUpload?.();
    return true;
  }
}

/** A body parser as Express runs it (multer's `single`, body-parser's `raw`). */
type BodyReader = (request: Request, response: Response, done: (error?: unknown) => void) => void;

const multipartFile: BodyReader = multer({ storage: multer.memoryStorage(), limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11 } }).single('file');
const csvBody: BodyReader = raw({ type: () => true, limit: IMPORT_MAX_BYTES });

/** How the file is named in its errors: `{ file: 'RCV', upload: 'an RCV' }`. */
export interface UploadNames {
  file: string;
  upload: string;
}

/** What went wrong reading the upload, as the handler answers it: 413 past IMPORT_MAX_BYTES (D2b), else 400 naming the field. */
function uploadError(error: unknown, names: UploadNames): DomainError {
  const tooLarge = () => new DomainError('PAYLOAD_TOO_LARGE_ERROR', `The ${names.file} file is larger than the limit of ${IMPORT_MAX_TEXT}`, { limitBytes: IMPORT_MAX_BYTES });
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge();
    return validationError(error.field ?? 'file', `is not ${names.upload} upload: ${error.message}`);
  }
  const status = (error as { status?: number }).status;
  if ((error as { type?: string }).type === 'entity.too.large' || status === 413) return tooLarge();
  return validationError('file', 'could not be read from the request');
}

/**
 * An import's file sent as the `file` field of a `multipart/form-data` body or as a `text/csv`
 * body (the statement and RCV imports), up to IMPORT_MAX_BYTES, read after the guards
 * (deferUpload): `keep` gets what went wrong (the error to answer) or the file's bytes (none when
 * the body had none). Other content types are left to the JSON body rules. Meanwhile
 * `request.body` is a placeholder, so that the JSON body guard knows a parser takes it.
 */
export function deferFileUpload(request: Request, response: Response, names: UploadNames, keep: (error: DomainError | undefined, file: Buffer | undefined) => void): void {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  const reader = multipart ? multipartFile : type.startsWith('text/csv') ? csvBody : null;
  if (!reader) return;
  request.body = {};
  deferUpload(request, (read) => {
    request.body = undefined;
    reader(request, response, (error?: unknown) => {
      const file = multipart ? request.file?.buffer : Buffer.isBuffer(request.body) ? request.body : undefined;
      if (error) keep(uploadError(error, names), undefined);
      else keep(undefined, file);
      if (request.body === undefined || Buffer.isBuffer(request.body)) request.body = {};
      read();
    });
  });
}
