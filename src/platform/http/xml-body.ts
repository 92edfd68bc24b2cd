import { raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../../libs/shared-kernel/src';
import { deferUpload } from '../imports/deferred-upload';

/**
 * The raw bytes of an XML upload (`application/xml` or `text/xml`), for the one route that takes
 * XML, with its own size limit; the route decodes them by the XML declaration's encoding. Other
 * content types fall through to the JSON parser. Over the limit: 413 naming the limit.
 */
/** D2b: binary megabytes, and the bytes said. */
const limitText = (bytes: number) => `${bytes / 1_048_576} MB (${bytes.toLocaleString('en-US')} bytes)`;

const XML_TYPES = ['application/xml', 'text/xml', 'application/*+xml'];

/**
 * D2b: an XML body is read only once the route's guards let the caller in (deferUpload,
 * UploadBodyGuard); meanwhile `request.body` is a placeholder, so that the JSON body guard
 * knows a parser takes it.
 */
export function rawXmlBody(limitBytes: number) {
  const parse = raw({ type: XML_TYPES, limit: limitBytes });
  return (request: Request, response: Response, next: NextFunction): void => {
    if (!request.is(XML_TYPES)) {
      next();
      return;
    }
    request.body = {};
    deferUpload(request, (done) => {
      request.body = undefined;
      parse(request, response, (error?: unknown) => {
        if (error && (error as { type?: string }).type === 'entity.too.large') {
          done(new DomainError('PAYLOAD_TOO_LARGE_ERROR', `The XML body is larger than the limit of ${limitText(limitBytes)}`, { limitBytes }));
          return;
        }
        done(error);
      });
    });
    next();
  };
}
