import { ApiError } from '../web/src/api-error';
import { formErrors } from '../web/src/form-errors';

/* Issue 24: how the screens place an API error (D1 envelope) next to the field it names. */

const refusal = (code: string, message: string, params: Record<string, unknown> = {}) =>
  new ApiError(400, { requestId: 'r', statusCode: 400, code, message, params });

describe('formErrors (admin screens)', () => {
  it('puts each params.errors[].path under its field, nested paths under their top field, unknown paths on the form', () => {
    const error = refusal('VALIDATION_ERROR', 'name must not be blank', {
      errors: [
        { path: 'name', message: 'must contain a visible character' },
        { path: 'permissions.erp', message: 'must be ["read"]' },
        { path: 'lines[0].amount', message: 'must be an integer' },
      ],
    });
    expect(formErrors(error, ['name', 'permissions'])).toEqual({
      fields: { name: 'must contain a visible character', permissions: 'must be ["read"]' },
      form: ['lines[0].amount: must be an integer'],
    });
  });

  it('joins two messages for one field', () => {
    const error = refusal('VALIDATION_ERROR', 'x', { errors: [{ path: 'email', message: 'a' }, { path: 'email', message: 'b' }] });
    expect(formErrors(error, ['email']).fields).toEqual({ email: 'a; b' });
  });

  it('shows a domain refusal whose params name a field of the form under that field, by its message', () => {
    const error = refusal('ENTITY_TAX_ID_INVALID_ERROR', 'The tax id is not a valid Chilean RUT', { taxId: '1-2' });
    expect(formErrors(error, ['name', 'taxId'])).toEqual({ fields: { taxId: 'The tax id is not a valid Chilean RUT' }, form: [] });
  });

  it('shows any other refusal by its message on the form', () => {
    const error = refusal('ORGANIZATION_NOT_EMPTY_ERROR', 'The Organization still holds an Entity', { organizationId: 'x' });
    expect(formErrors(error, [])).toEqual({ fields: {}, form: ['The Organization still holds an Entity'] });
  });

  it('says the service could not be reached when the call failed without an answer', () => {
    expect(formErrors(new TypeError('Failed to fetch'), ['name']).form).toEqual(['The service could not be reached: Failed to fetch']);
  });
});
