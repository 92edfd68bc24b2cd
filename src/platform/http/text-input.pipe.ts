import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { ValidationIssue } from '../../../libs/contracts/src';
import { RequestValidationError } from './validation';

function nulPaths(value: unknown, path: string, found: ValidationIssue[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ path, message: `${path || 'value'} must not contain a NUL character` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => nulPaths(item, `${path}[${i}]`, found));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) nulPaths(item, path ? `${path}.${key}` : key, found);
  }
}

/** PostgreSQL text cannot hold U+0000: refuse it in any input as a 400, before it reaches a query. */
@Injectable()
export class TextInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    const found: ValidationIssue[] = [];
    nulPaths(value, metadata.type === 'param' || metadata.type === 'query' ? (metadata.data ?? '') : '', found);
    if (found.length > 0) throw new RequestValidationError(found);
    return value;
  }
}
