import fc from 'fast-check';
import { ACCOUNT_TYPES, AccountType, normalSideOf, sameFamily, SUBTYPES, subtypeFitsTracking, subtypeFitsType, TRACKINGS } from './account-types';
import { AccountGroup, LedgerAccount, newAccountGroup } from './chart';

const now = new Date('2026-01-01T00:00:00Z');
const group = (type: AccountType, codePrefix = '1'): AccountGroup => ({
  entityId: 'e', id: `g-${type}`, parentGroupId: null, codePrefix, name: 'G', type, createdAt: now, updatedAt: now,
});
const open = (overrides: Partial<Parameters<typeof LedgerAccount.open>[0]> = {}, g: AccountGroup | null = null) =>
  LedgerAccount.open({ entityId: 'e', id: 'a', groupId: g?.id ?? null, code: '1101', name: 'Caja', type: 'asset', tracking: 'balance', subtype: null, ...overrides }, g, now);

describe('chart of accounts rules (D30, D31)', () => {
  it('derives the normal side from the type', () => {
    expect(ACCOUNT_TYPES.map((t) => [t, normalSideOf(t)])).toEqual([
      ['asset', 'debit'], ['liability', 'credit'], ['equity', 'credit'], ['income', 'credit'],
      ['cost_of_goods_sold', 'debit'], ['operating_expense', 'debit'], ['other_income', 'credit'], ['other_expense', 'debit'],
    ]);
  });

  it('accepts exactly the subtype, type and tracking combinations of D31', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACCOUNT_TYPES), fc.constantFrom(...TRACKINGS), fc.constantFrom(...SUBTYPES), (type, tracking, subtype) => {
        const valid = subtypeFitsType(subtype, type) && subtypeFitsTracking(subtype, tracking);
        const attempt = () => open({ type, tracking, subtype });
        if (valid) expect(attempt).not.toThrow();
        else expect(attempt).toThrow(expect.objectContaining({ code: expect.stringMatching(/^LEDGER_ACCOUNT_SUBTYPE_(TYPE|TRACKING)_INCOMPATIBLE_ERROR$/) }));
      }),
    );
  });

  it('keeps an account in its group type family and under its code prefix', () => {
    expect(() => open({ type: 'liability' }, group('asset'))).toThrow(expect.objectContaining({ code: 'LEDGER_ACCOUNT_GROUP_TYPE_INCOMPATIBLE_ERROR' }));
    expect(() => open({ code: '2101' }, group('asset', '11'))).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => open({ type: 'other_income', code: '4101' }, group('income', '4'))).not.toThrow();
  });

  it('refuses a child group of another type family', () => {
    expect(() => newAccountGroup({ entityId: 'e', id: 'c', parentGroupId: 'p', codePrefix: '2', name: 'x', type: 'liability' }, group('asset'), now)).toThrow(
      expect.objectContaining({ code: 'LEDGER_ACCOUNT_GROUP_PARENT_TYPE_INCOMPATIBLE_ERROR' }),
    );
  });

  it('with entries, changes type only inside the family and locks tracking and subtype', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACCOUNT_TYPES), fc.constantFrom(...ACCOUNT_TYPES), (from, to) => {
        const account = open({ type: from, code: '9' });
        const attempt = () => account.change({ type: to }, true, null, now);
        if (sameFamily(from, to)) expect(attempt).not.toThrow();
        else expect(attempt).toThrow(expect.objectContaining({ code: 'LEDGER_ACCOUNT_TYPE_LOCKED_ERROR' }));
      }),
    );
    expect(() => open().change({ tracking: 'open_item' }, true, null, now)).toThrow(expect.objectContaining({ code: 'LEDGER_ACCOUNT_TRACKING_LOCKED_ERROR' }));
    expect(() => open().change({ subtype: 'fixed_asset' }, true, null, now)).toThrow(expect.objectContaining({ code: 'LEDGER_ACCOUNT_SUBTYPE_LOCKED_ERROR' }));
    const free = open();
    free.change({ type: 'liability', tracking: 'open_item', subtype: 'payable' }, false, null, now);
    expect(free.snapshot()).toMatchObject({ type: 'liability', tracking: 'open_item', subtype: 'payable' });
  });

  it('leaves the account unchanged when a change is refused', () => {
    const account = open();
    expect(() => account.change({ name: 'New', subtype: 'payable' }, false, null, now)).toThrow();
    expect(account.snapshot()).toMatchObject({ name: 'Caja', subtype: null });
  });
});
