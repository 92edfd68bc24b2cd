export const ACCOUNT_TYPES = [
  'asset',
  'liability',
  'equity',
  'income',
  'cost_of_goods_sold',
  'operating_expense',
  'other_income',
  'other_expense',
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const TRACKINGS = ['balance', 'open_item'] as const;
export type Tracking = (typeof TRACKINGS)[number];

export const SUBTYPES = ['fixed_asset', 'receivable', 'unbilled_receivable', 'payable', 'internal_transfer', 'migration_clearing'] as const;
export type Subtype = (typeof SUBTYPES)[number];

export type NormalSide = 'debit' | 'credit';

/** D31: a type changes, once there are entries, only inside its family. */
const FAMILY: Record<AccountType, string> = {
  asset: 'asset',
  liability: 'liability',
  equity: 'equity',
  income: 'income',
  other_income: 'income',
  cost_of_goods_sold: 'expense',
  operating_expense: 'expense',
  other_expense: 'expense',
};

export function typeFamily(type: AccountType): string {
  return FAMILY[type];
}

export function sameFamily(a: AccountType, b: AccountType): boolean {
  return FAMILY[a] === FAMILY[b];
}

/** Income and expense types are Result Accounts. */
export function isResultType(type: AccountType): boolean {
  return FAMILY[type] === 'income' || FAMILY[type] === 'expense';
}

/** Derived from the type, never sent: assets and expenses grow on the debit side. */
export function normalSideOf(type: AccountType): NormalSide {
  return type === 'asset' || FAMILY[type] === 'expense' ? 'debit' : 'credit';
}

interface SubtypeRule {
  types: readonly AccountType[];
  tracking: Tracking;
}

/** D31: which type and tracking each subtype needs. */
const SUBTYPE_RULES: Record<Subtype, SubtypeRule> = {
  fixed_asset: { types: ['asset'], tracking: 'balance' },
  receivable: { types: ['asset'], tracking: 'open_item' },
  unbilled_receivable: { types: ['asset'], tracking: 'open_item' },
  payable: { types: ['liability'], tracking: 'open_item' },
  internal_transfer: { types: ['asset'], tracking: 'balance' },
  migration_clearing: { types: ['asset', 'liability', 'equity'], tracking: 'balance' },
};

export function subtypeFitsType(subtype: Subtype, type: AccountType): boolean {
  return SUBTYPE_RULES[subtype].types.includes(type);
}

export function subtypeFitsTracking(subtype: Subtype, tracking: Tracking): boolean {
  return SUBTYPE_RULES[subtype].tracking === tracking;
}
