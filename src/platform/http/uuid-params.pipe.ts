import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isUuid } from '../../../libs/shared-kernel/src';
import { RequestValidationError } from './validation';

/** Every path parameter is an id: a malformed UUID is a 400 before any handler runs. */
@Injectable()
export class UuidParamsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param') return value;
    if (metadata.data) {
      this.check(metadata.data, value);
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, param] of Object.entries(value)) this.check(name, param);
    }
    return value;
  }

  private check(name: string, value: unknown): void {
    if (!isUuid(value)) {
      throw new RequestValidationError([{ path: name, message: `${name} must be a UUID` }]);
    }
  }
}
