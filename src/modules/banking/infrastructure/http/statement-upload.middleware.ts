import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { DomainError } from '../../../../../libs/shared-kernel/src';
import { deferFileUpload } from '../../../../platform/imports/deferred-upload';

export interface StatementUploadRequest extends Request {
  statementFile?: Buffer;
  statementUploadError?: DomainError;
}

/**
 * D78: the statement arrives as the `file` field of a `multipart/form-data` body or as a
 * `text/csv` body, read once the guards let the caller in (D2b: deferFileUpload,
 * UploadBodyGuard); what went wrong is kept for the handler to answer, so the caller's access is
 * judged first. Other content types go on to the JSON body rules. A statement file is larger
 * than a JSON body can be (D2's 1 MB: a 50,000-row statement is about 2.5 MB); the import takes
 * up to 5 MB = 5,242,880 bytes (D2b), as the DTE import does (D65a); past it, 413.
 */
@Injectable()
export class StatementUploadMiddleware implements NestMiddleware {
  use(request: StatementUploadRequest, response: Response, next: NextFunction): void {
    deferFileUpload(request, response, { file: 'statement', upload: 'a statement' }, (error, file) => {
      if (error) request.statementUploadError = error;
      else request.statementFile = file;
    });
    next();
  }
}
