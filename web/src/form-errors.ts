import type { ValidationIssue } from '../../libs/contracts/src';
import { ApiError } from './api-error';

/** Messages by field (from `params.errors[].path`, or a `params` key naming a field), the rest for the form. */
export interface FormErrors {
  form: string[];
  fields: Record<string, string>;
}

export const NO_ERRORS: FormErrors = { form: [], fields: {} };

export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) {
    return { form: [error instanceof Error ? `The service could not be reached: ${error.message}` : 'Something went wrong'], fields: {} };
  }
  const result: FormErrors = { form: [], fields: {} };
  const issues = (error.envelope.params?.errors as ValidationIssue[] | undefined) ?? [];
  for (const issue of Array.isArray(issues) ? issues : []) {
    const field = fields.find((name) => issue.path === name || issue.path.startsWith(`${name}.`) || issue.path.startsWith(`${name}[`));
    const message = `${issue.message}`;
    if (field) result.fields[field] = result.fields[field] ? `${result.fields[field]}; ${message}` : message;
    else result.form.push(`${issue.path}: ${message}`);
  }
  if (issues.length === 0) {
    const named = fields.find((name) => error.envelope.params && name in error.envelope.params);
    if (named) result.fields[named] = error.message;
    else result.form.push(error.message);
  }
  return result;
}
