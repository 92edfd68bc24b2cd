import { DomainError, errorCatalog, statusForErrorCode } from './domain-error';

describe('statusForErrorCode (D3)', () => {
  it('maps every *_NOT_FOUND_ERROR to 404', () => {
    expect(statusForErrorCode('ORGANIZATION_NOT_FOUND_ERROR')).toBe(404);
    expect(statusForErrorCode('ANYTHING_NEW_NOT_FOUND_ERROR')).toBe(404);
  });

  it('maps other domain codes to 409', () => {
    expect(statusForErrorCode('ORGANIZATION_NAME_ALREADY_EXISTS_ERROR')).toBe(409);
    expect(statusForErrorCode('LEDGER_PERIOD_LOCKED_ERROR')).toBe(409);
  });

  it('keeps the statuses the spec and decisions fix', () => {
    expect(statusForErrorCode('VALIDATION_ERROR')).toBe(400);
    expect(statusForErrorCode('MALFORMED_JSON_ERROR')).toBe(400);
    expect(statusForErrorCode('UNAUTHENTICATED_ERROR')).toBe(401);
    expect(statusForErrorCode('API_KEY_READ_ONLY_ERROR')).toBe(403);
    expect(statusForErrorCode('PAYLOAD_TOO_LARGE_ERROR')).toBe(413);
    expect(statusForErrorCode('RATE_LIMIT_EXCEEDED_ERROR')).toBe(429);
    expect(statusForErrorCode('INTERNAL_SERVER_ERROR')).toBe(500);
  });

  it('carries code, message and params, with empty params by default', () => {
    const error = new DomainError('X_ERROR', 'x');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('X_ERROR');
    expect(error.params).toEqual({});
  });
});

describe('errorCatalog', () => {
  it('builds errors of its codes carrying their declared status', () => {
    const error = errorCatalog({ THING_NOT_FOUND_ERROR: 404, THING_BROKEN_ERROR: 400 });
    expect(error('THING_BROKEN_ERROR', 'Broken', { id: 1 })).toMatchObject({ code: 'THING_BROKEN_ERROR', message: 'Broken', params: { id: 1 }, status: 400 });
    expect(error('THING_NOT_FOUND_ERROR', 'No thing').status).toBe(404);
    // @ts-expect-error a code the table does not declare
    error('OTHER_ERROR', 'x');
    // @ts-expect-error D3: a *_NOT_FOUND_ERROR is 404
    errorCatalog({ THING_NOT_FOUND_ERROR: 409 });
  });
});
