import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { HeavyRead } from '../http/heavy-reads';
import { UploadBodyGuard } from './deferred-upload';

/**
 * D2b: an import route (DTE, bank statement, RCV) is heavy work: it takes one of D2a's heavy
 * slots (HEAVY_READS_PER_USER per User, HEAVY_READS_TOTAL per instance, shared with the heavy
 * reads) for as long as its response runs; beyond them 429 TOO_MANY_CONCURRENT_READS_ERROR with
 * Retry-After, before the file is parsed. The handler parses before it opens its transaction
 * (the route is `ownTransaction`), so no pooled connection waits on a parse. The file itself is
 * read only after that slot is taken (UploadBodyGuard, the route's last guard): a refused import
 * costs the service no 5 MB buffer.
 */
export const HeavyImport = () =>
  applyDecorators(
    HeavyRead(),
    UseGuards(UploadBodyGuard),
    ApiTooManyRequestsResponse({
      description: 'TOO_MANY_CONCURRENT_READS_ERROR: imports and heavy reads at once beyond HEAVY_READS_PER_USER or HEAVY_READS_TOTAL (D2a, D2b), with Retry-After',
    }),
  );
