import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';

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
