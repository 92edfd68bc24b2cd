export type ErrorParams = Record<string, unknown>;

/**
 * A rule of the domain was refused. Carries a stable `code` that clients match on; never an
 * HTTP status (the status is derived from the code in one place: `statusForErrorCode`).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly params: ErrorParams = {},
    /** The HTTP status, when the code's module declares it (errorCatalog); else statusForErrorCode. */
    readonly status?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 502, 503: an outside service a module reaches (bank provider, FX provider, language model) failed or is not configured. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 422 | 429 | 502 | 503;

/**
 * A module's error codes with their statuses, declared in one table next to the module. The
 * compiler checks the table: every code ends in `_ERROR`, and D3 holds (a `*_NOT_FOUND_ERROR` is
 * 404). The constructor it answers takes only codes of the table, and its errors carry their
 * status (the error envelope uses it).
 */
export type StatusTable<T> = { readonly [C in keyof T]: C extends `${string}_NOT_FOUND_ERROR` ? 404 : C extends `${string}_ERROR` ? ErrorStatus : never };

export function errorCatalog<const T extends Record<string, ErrorStatus>>(statuses: T & StatusTable<T>) {
  return <C extends keyof T & string>(code: C, message: string, params: ErrorParams = {}): DomainError => new DomainError(code, message, params, statuses[code]);
}

/** D2: 400 VALIDATION_ERROR naming the one field (`path`) that is wrong, and why. */
export function validationError(path: string, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', `${path} ${message}`, { errors: [{ path, message }] });
}

/**
 * The cross-cutting codes (request pipeline, authentication, permissions, limits) whose status is
 * not the D3 default (404 for *_NOT_FOUND_ERROR, else 409). A module's own codes are declared in
 * its own table next to it (errorCatalog: LEDGER_ERROR_STATUS, PARTNER_ERROR_STATUS, ...) and
 * their errors carry their status.
 */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  // 400: input that is well-formed JSON but not acceptable (D2, D3)
  VALIDATION_ERROR: 400,
  MALFORMED_JSON_ERROR: 400,
  MALFORMED_REQUEST_ERROR: 400,
  AUDIT_ACTOR_REQUIRED_ERROR: 400,
  // 401
  UNAUTHENTICATED_ERROR: 401,
  // 403
  API_KEY_FORBIDDEN_ON_AUTH_ERROR: 403,
  API_KEY_READ_ONLY_ERROR: 403,
  PERMISSION_DENIED_ERROR: 403,
  // 404 (route level; *_NOT_FOUND_ERROR is 404 by default anyway)
  ROUTE_NOT_FOUND_ERROR: 404,
  // others
  REQUEST_TIMEOUT_ERROR: 408,
  PAYLOAD_TOO_LARGE_ERROR: 413,
  RATE_LIMIT_EXCEEDED_ERROR: 429,
  TOO_MANY_CONCURRENT_READS_ERROR: 429,
  HEADERS_TOO_LARGE_ERROR: 431,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE_ERROR: 503,
};

/** D3: the one mapping from a domain code to an HTTP status. */
export function statusForErrorCode(code: string): number {
  const explicit = STATUS_BY_CODE[code];
  if (explicit !== undefined) return explicit;
  if (code.endsWith('_NOT_FOUND_ERROR')) return 404;
  return 409;
}
