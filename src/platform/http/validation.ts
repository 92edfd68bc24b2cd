import { Body, Injectable, PipeTransform, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { CompiledValidationPipe } from './compiled-validation';
import type { ValidationIssue } from '../../../libs/contracts/src';
import { DomainError } from '../../../libs/shared-kernel/src';

export class RequestValidationError extends DomainError {
  constructor(errors: ValidationIssue[]) {
    super('VALIDATION_ERROR', errors.length > 0 ? `Invalid request: ${errors[0].path} ${errors[0].message}` : 'Invalid request', { errors });
  }
}

function childPath(parent: string, property: string, parentIsArray: boolean): string {
  if (parentIsArray && /^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** class-validator's checks of a value's JSON type (and presence). */
const TYPE_CONSTRAINTS = new Set(['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject']);

/**
 * The messages of one property. A value of the wrong type answers only that: `amount: "x"` is
 * "must be an integer number", not also "must not be less than 1" and "must not be greater than".
 */
function messagesOf(constraints: Record<string, string>): string[] {
  const typeMessages = Object.entries(constraints).filter(([name]) => TYPE_CONSTRAINTS.has(name));
  return (typeMessages.length > 0 ? typeMessages : Object.entries(constraints)).map(([, message]) => message);
}

/** Flattens class-validator's tree into D2's `{ path, message }` list (`lines[2].amount`). */
export function flattenValidationErrors(errors: ClassValidatorError[], parent = '', parentIsArray = false): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const path = childPath(parent, error.property, parentIsArray);
    for (const message of messagesOf(error.constraints ?? {})) {
      issues.push({ path, message });
    }
    if (error.children && error.children.length > 0) {
      issues.push(...flattenValidationErrors(error.children, path, Array.isArray(error.value)));
    }
  }
  return issues;
}

/** Whitelisting validation of bodies and queries; unknown properties are refused (no mass assignment). */
export function createValidationPipe(): ValidationPipe {
  // Bodies are first offered to their DTO's compiled plan (issue 25); refusals come from this pipe.
  return new CompiledValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new RequestValidationError(flattenValidationErrors(errors)),
  });
}

/**
 * D2 on a route that takes no body: a body naming any property is refused like an unknown
 * property anywhere else (an empty body, `{}` or none, passes).
 */
@Injectable()
export class NoBodyPipe implements PipeTransform {
  transform(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    const names = Object.keys(value);
    if (names.length > 0) throw new RequestValidationError(names.map((name) => ({ path: name, message: `property ${name} should not exist` })));
    return value;
  }
}

/** The body of a route that takes none: see NoBodyPipe. */
export const NoBody = () => Body(NoBodyPipe);
