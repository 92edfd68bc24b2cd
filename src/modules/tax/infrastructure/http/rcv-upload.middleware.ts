import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { DomainError } from '../../../../../libs/shared-kernel/src';
import { deferFileUpload } from '../../../../platform/imports/deferred-upload';

export interface RcvUploadRequest extends Request {
  rcvFile?: Buffer;
  rcvUploadError?: DomainError;
}

/**
 * D92: the RCV file arrives as the `file` field of a `multipart/form-data` body or as a
 * `text/csv` body, up to 5 MB. Read once the guards let the caller in (D2b: deferFileUpload,
 * UploadBodyGuard); what went wrong is kept for the handler, so the caller's access and the
 * Entity's jurisdiction are judged first. Other content types go on to the JSON body rules.
 */
@Injectable()
export class RcvUploadMiddleware implements NestMiddleware {
  use(request: RcvUploadRequest, response: Response, next: NextFunction): void {
    deferFileUpload(request, response, { file: 'RCV', upload: 'an RCV' }, (error, file) => {
      if (error) request.rcvUploadError = error;
      else request.rcvFile = file;
    });
    next();
  }
}
