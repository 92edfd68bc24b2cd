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
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** D2: 400 VALIDATION_ERROR naming the one field (`path`) that is wrong, and why. */
export function validationError(path: string, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', `${path} ${message}`, { errors: [{ path, message }] });
}

/** Codes whose status is not given by the D3 default (404 for *_NOT_FOUND_ERROR, else 409). */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  // 400: input that is well-formed JSON but not acceptable (D2, D3, D23, D33a, D64, D78)
  VALIDATION_ERROR: 400,
  MALFORMED_JSON_ERROR: 400,
  MALFORMED_REQUEST_ERROR: 400,
  AUDIT_ACTOR_REQUIRED_ERROR: 400,
  SET_PASSWORD_TOKEN_INVALID_ERROR: 400,
  ENTITY_TAX_ID_INVALID_ERROR: 400,
  PARTNER_TAX_ID_INVALID_ERROR: 400,
  LEDGER_ENTRY_UNBALANCED_ERROR: 400,
  LEDGER_ENTRY_LINE_COUNT_ERROR: 400,
  LEDGER_LINE_TRANSACTION_AMOUNT_MISMATCH_ERROR: 400,
  LEDGER_LINE_DUPLICATE_DIMENSION_ERROR: 400,
  BANK_ACCOUNT_KIND_LEDGER_TYPE_MISMATCH_ERROR: 400,
  BANK_IMPORT_ROW_INVALID_ERROR: 400,
  INVOICE_COUNTER_ACCOUNT_REQUIRED_ERROR: 400,
  INVOICE_TAX_ACCOUNT_REQUIRED_ERROR: 400,
  // 401
  UNAUTHENTICATED_ERROR: 401,
  INVALID_EMAIL_OR_PASSWORD_ERROR: 401,
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
  BANK_PROVIDER_ERROR: 502,
  AGENT_MODEL_ERROR: 502,
  SERVICE_UNAVAILABLE_ERROR: 503,
  AGENT_NOT_CONFIGURED_ERROR: 503,
};

/** D3: the one mapping from a domain code to an HTTP status. */
export function statusForErrorCode(code: string): number {
  const explicit = STATUS_BY_CODE[code];
  if (explicit !== undefined) return explicit;
  if (code.endsWith('_NOT_FOUND_ERROR')) return 404;
  return 409;
}
