import type { AccountView } from '../../application/chart.service';
import type { Book, Dimension, DimensionValue } from '../../domain/books-dimensions';
import type { AccountGroup } from '../../domain/chart';
import type { AccountGroupResponse, BookResponse, DimensionResponse, DimensionValueResponse, LedgerAccountResponse } from './ledger.dto';

const iso = (date: Date) => date.toISOString();

export function presentGroup(g: AccountGroup): AccountGroupResponse {
  return { id: g.id, parentGroupId: g.parentGroupId, codePrefix: g.codePrefix, name: g.name, type: g.type, createdAt: iso(g.createdAt), updatedAt: iso(g.updatedAt) };
}

export function presentAccount({ account, usage }: AccountView): LedgerAccountResponse {
  const s = account.snapshot();
  return {
    id: s.id,
    groupId: s.groupId,
    code: s.code,
    name: s.name,
    type: s.type,
    tracking: s.tracking,
    subtype: s.subtype,
    normalSide: account.normalSide,
    hasEntries: usage.hasEntries,
    deleteBlockedBy: usage.deleteBlockedBy,
    isDefaultPurchaseAccount: usage.isDefaultPurchaseAccount,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

export function presentBook(b: Book): BookResponse {
  return { id: b.id, entityId: b.entityId, name: b.name, createdAt: iso(b.createdAt), updatedAt: iso(b.updatedAt) };
}

export function presentDimension(d: Dimension): DimensionResponse {
  return { id: d.id, entityId: d.entityId, name: d.name, createdAt: iso(d.createdAt), updatedAt: iso(d.updatedAt) };
}

export function presentValue(v: DimensionValue): DimensionValueResponse {
  return { id: v.id, entityId: v.entityId, dimensionId: v.dimensionId, code: v.code, name: v.name, parentId: v.parentId, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt) };
}
