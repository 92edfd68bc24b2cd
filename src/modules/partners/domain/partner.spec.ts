import { changePartner, newPartner } from './partner';

const now = new Date('2026-01-01T00:00:00Z');
const base = { entityId: 'e', id: 'p', name: ' Proveedora Sur ', type: 'company' as const, defaultPurchaseAccountId: null };

describe('Partner (D23, D45)', () => {
  it('stores a Chilean RUT canonical and the name trimmed', () => {
    expect(newPartner({ ...base, country: 'CL', taxId: '76.086.428-5' }, now)).toMatchObject({ name: 'Proveedora Sur', taxId: '76086428-5' });
  });

  it('refuses a bad RUT with PARTNER_TAX_ID_INVALID_ERROR, also when the country becomes CL', () => {
    expect(() => newPartner({ ...base, country: 'CL', taxId: '76.086.428-4' }, now)).toThrow(expect.objectContaining({ code: 'PARTNER_TAX_ID_INVALID_ERROR' }));
    const foreign = newPartner({ ...base, country: 'AR', taxId: '30-12345678-9' }, now);
    expect(() => changePartner(foreign, { country: 'CL' }, now)).toThrow(expect.objectContaining({ code: 'PARTNER_TAX_ID_INVALID_ERROR' }));
    expect(changePartner(foreign, { country: 'CL', taxId: '760864285' }, now).taxId).toBe('76086428-5');
  });
});
