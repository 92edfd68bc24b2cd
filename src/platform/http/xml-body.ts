import { raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../../libs/shared-kernel/src';

/**
 * The raw bytes of an XML upload (`application/xml` or `text/xml`), for the one route that takes
 * XML, with its own size limit; the route decodes them by the XML declaration's encoding. Other
 * content types fall through to the JSON parser. Over the limit: 413 naming the limit.
 */
/** D2b: binary megabytes, and the bytes said. */
const limitText = (bytes: number) => `${bytes / 1_048_576} MB (${bytes.toLocaleString('en-US')} bytes)`;

export function rawXmlBody(limitBytes: number) {
  const parse = raw({ type: ['application/xml', 'text/xml', 'application/*+xml'], limit: limitBytes });
  return (request: Request, response: Response, next: NextFunction): void => {
    parse(request, response, (error?: unknown) => {
      if (error && (error as { type?: string }).type === 'entity.too.large') {
        next(new DomainError('PAYLOAD_TOO_LARGE_ERROR', `The XML body is larger than the limit of ${limitText(limitBytes)}`, { limitBytes }));
        return;
      }
      next(error as Error | undefined);
    });
  };
}
