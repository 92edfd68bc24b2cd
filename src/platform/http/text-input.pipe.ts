import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { ValidationIssue } from '../../../libs/contracts/src';
import { textProblem } from '../../../libs/shared-kernel/src';
import { RequestValidationError } from './validation';

/**
 * How deeply arrays and objects may nest in a request. The deepest legitimate input is a ledger
 * line's Dimension Value ids (`newLedgerEntryLines[0].dimensionValueIds[0]`, depth 3); beyond the
 * limit the validators and class-transformer, which recurse, would overflow the stack (a 500).
 */
export const MAX_INPUT_DEPTH = 16;

/** The problems of every string (values and property names) of an input, without recursion. */
export function inputProblems(root: unknown, rootPath: string): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: rootPath, depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) found.push({ path, message: `${path || 'value'} ${problem}` });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      found.push({ path, message: `${path || 'value'} is nested more than ${MAX_INPUT_DEPTH} levels deep` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      const itemPath = path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) found.push({ path: itemPath, message: `property name ${keyProblem}` });
      // `__proto__`, `constructor`, `hasOwnProperty`...: no input names these, and the validator's
      // unknown-property check (D2), which looks names up in a plain object, would let them pass.
      else if (key in Object.prototype) found.push({ path: itemPath, message: `property ${key} should not exist` });
      else pending.push({ value: item, path: itemPath, depth: depth + 1 });
    }
  }
  return found;
}

/**
 * Every body, query and path parameter, before any validator sees it: strings PostgreSQL text
 * cannot hold as sent (U+0000, lone surrogates), input nested beyond MAX_INPUT_DEPTH and property
 * names of Object.prototype are a 400 VALIDATION_ERROR, never a query error or a stack overflow
 * (500), nor a property that slips past the unknown-property check.
 */
@Injectable()
export class TextInputPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // Raw bytes (the DTE import's XML) are read by their route, never walked here byte by byte.
    if (metadata.type === 'custom' || Buffer.isBuffer(value)) return value;
    const found = inputProblems(value, metadata.type === 'param' || metadata.type === 'query' ? (metadata.data ?? '') : '');
    if (found.length > 0) throw new RequestValidationError(found);
    return value;
  }
}
