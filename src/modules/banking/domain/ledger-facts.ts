/** What banking reads of the ledger: an account's type and tracking (kept as plain strings here). */
export type AccountTypeName = 'asset' | 'liability' | 'equity' | 'income' | 'cost_of_goods_sold' | 'operating_expense' | 'other_income' | 'other_expense';
