import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';

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

/**
 * An import's file sent as the `file` field of a `multipart/form-data` body or as a `text/csv`
 * body (the statement and RCV imports), read after the guards (deferUpload): `keep` gets what
 * went wrong or the file's bytes (none when the body had none). Other content types are left to
 * the JSON body rules. Meanwhile `request.body` is a placeholder, so that the JSON body guard
 * knows a parser takes it.
 */
export function deferFileUpload(request: Request, response: Response, readers: { multipart: BodyReader; csv: BodyReader }, keep: (error: unknown, file: Buffer | undefined) => void): void {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  const reader = multipart ? readers.multipart : type.startsWith('text/csv') ? readers.csv : null;
  if (!reader) return;
  request.body = {};
  deferUpload(request, (read) => {
    request.body = undefined;
    reader(request, response, (error?: unknown) => {
      const file = multipart ? request.file?.buffer : Buffer.isBuffer(request.body) ? request.body : undefined;
      keep(error, error ? undefined : file);
      if (request.body === undefined || Buffer.isBuffer(request.body)) request.body = {};
      read();
    });
  });
}
