import type { ComponentChildren, JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { type FormErrors, formErrors, NO_ERRORS } from './form-errors';

let counter = 0;
const nextDomId = (prefix: string) => `${prefix}-${++counter}`;

/** Runs one API call for a form and keeps its errors by field (or for the whole form). */
export function useSubmit(fields: readonly string[]) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const run = async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setErrors(NO_ERRORS);
    try {
      return await call();
    } catch (error) {
      setErrors(formErrors(error, fields));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { errors, busy, run, setErrors };
}

interface FieldProps {
  label: string;
  name: string;
  errors: FormErrors;
  hint?: ComponentChildren;
  /** A message of the page itself (for example the RUT checked as typed). */
  localError?: string | null;
  children: (props: { id: string; name: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => JSX.Element;
}

/** A labelled control with its hint and, below it, the API's message for this field. */
export function Field({ label, name, errors, hint, localError, children }: FieldProps) {
  const id = useMemo(() => nextDomId(name), [name]);
  const message = errors.fields[name] ?? localError ?? null;
  const describedBy = [hint ? `${id}-hint` : null, message ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${message ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, name, 'aria-invalid': Boolean(message), 'aria-describedby': describedBy })}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {message ? (
        <p class="error" id={`${id}-error`} data-field={name}>
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** Messages that belong to no field, announced to screen readers. */
export function FormMessages({ errors }: { errors: FormErrors }) {
  if (errors.form.length === 0) return null;
  return (
    <div class="alert" role="alert">
      {errors.form.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      {children}
    </div>
  );
}

export const PAGE_SIZE = 10;

/** Long lists are shown a page at a time. */
export function usePages<T>(rows: readonly T[], size: number = PAGE_SIZE) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, pages - 1);
  return {
    rows: rows.slice(current * size, current * size + size),
    pager: <Pager page={current} pages={pages} total={rows.length} onPage={setPage} />,
  };
}

function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page + 1} of {pages} ({total})
      </span>
      <button type="button" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A secret or link shown once, with a copy button. */
export function ShownOnce({ label, value, children }: { label: string; value: string; children?: ComponentChildren }) {
  const id = useMemo(() => nextDomId('once'), []);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      setCopied('Copy refused by the browser: select the text and copy it.');
    }
  };
  return (
    <div class="once" role="status">
      <label for={id}>{label}</label>
      <div class="once-row">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {children}
      <p class="hint">Shown only now: it cannot be displayed again.{copied ? ` ${copied}` : ''}</p>
    </div>
  );
}

export const formatDateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '');
