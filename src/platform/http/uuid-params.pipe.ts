import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isUuid } from '../../../libs/shared-kernel/src';
import { RequestValidationError } from './validation';

/**
 * Every path parameter is an id: a malformed UUID is a 400 before any handler runs, and a valid
 * one reaches the handler in its canonical lower-case form (canonicalUuid).
 */
@Injectable()
export class UuidParamsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param') return value;
    if (metadata.data) return this.checked(metadata.data, value);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, param]) => [name, this.checked(name, param)]));
    }
    return value;
  }

  private checked(name: string, value: unknown): string {
    if (!isUuid(value)) {
      throw new RequestValidationError([{ path: name, message: `${name} must be a UUID` }]);
    }
    return value.toLowerCase();
  }
}
