import { LegalEntity } from './legal-entity';

const now = new Date('2026-01-01T00:00:00Z');
const make = (country = 'CL', taxId = '76.086.428-5') =>
  LegalEntity.create({ id: 'e1', organizationId: 'o1', name: '  Acme SpA ', country, taxId, currency: 'CLP' }, now);

describe('LegalEntity', () => {
  it('stores a Chilean tax id as a canonical RUT and the name trimmed', () => {
    const entity = make();
    expect(entity.snapshot()).toMatchObject({ name: 'Acme SpA', taxId: '76086428-5' });
  });

  it('refuses a RUT with a wrong check digit (ENTITY_TAX_ID_INVALID_ERROR)', () => {
    expect(() => make('CL', '76.086.428-4')).toThrow(expect.objectContaining({ code: 'ENTITY_TAX_ID_INVALID_ERROR' }));
  });

  it('keeps foreign tax ids as given', () => {
    expect(make('US', ' 12-3456789 ').snapshot().taxId).toBe('12-3456789');
  });

  it('refuses identity changes once locked, but always accepts a new name', () => {
    const entity = make();
    expect(() => entity.changeIdentity({ currency: 'USD' }, false, now)).toThrow(
      expect.objectContaining({ code: 'ENTITY_IDENTITY_FIELDS_LOCKED_ERROR' }),
    );
    entity.rename('Acme Chile SpA', now);
    expect(entity.snapshot().name).toBe('Acme Chile SpA');
  });

  it('judges a new tax id in the new country', () => {
    const entity = make();
    entity.changeIdentity({ country: 'US', taxId: 'EIN-1' }, true, now);
    expect(entity.snapshot()).toMatchObject({ country: 'US', taxId: 'EIN-1' });
    expect(() => entity.changeIdentity({ country: 'CL', taxId: 'EIN-1' }, true, now)).toThrow(
      expect.objectContaining({ code: 'ENTITY_TAX_ID_INVALID_ERROR' }),
    );
  });

  it('cannot be its own parent', () => {
    expect(() => make().setParent('e1', now)).toThrow(expect.objectContaining({ code: 'ENTITY_SELF_PARENT_ERROR' }));
  });
});
