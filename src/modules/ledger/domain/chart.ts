import {
  AccountType,
  normalSideOf,
  NormalSide,
  sameFamily,
  Subtype,
  subtypeFitsTracking,
  subtypeFitsType,
  Tracking,
} from './account-types';
import {
  groupParentTypeIncompatible,
  groupTypeIncompatible,
  ledgerAccountSubtypeLocked,
  ledgerAccountTrackingLocked,
  ledgerAccountTypeLocked,
  subtypeTrackingIncompatible,
  subtypeTypeIncompatible,
  validationError,
} from './ledger-errors';

export interface AccountGroup {
  entityId: string;
  id: string;
  parentGroupId: string | null;
  codePrefix: string;
  name: string;
  type: AccountType;
  createdAt: Date;
  updatedAt: Date;
}

/** D30: a child group keeps its parent's type family. */
export function newAccountGroup(
  input: Omit<AccountGroup, 'createdAt' | 'updatedAt'>,
  parent: AccountGroup | null,
  now: Date,
): AccountGroup {
  if (parent && !sameFamily(parent.type, input.type)) {
    throw groupParentTypeIncompatible({ parentGroupId: parent.id, parentType: parent.type, type: input.type });
  }
  return { ...input, codePrefix: input.codePrefix.trim(), name: input.name.trim(), createdAt: now, updatedAt: now };
}

export interface LedgerAccountState {
  entityId: string;
  id: string;
  groupId: string | null;
  code: string;
  name: string;
  type: AccountType;
  tracking: Tracking;
  subtype: Subtype | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AccountChange {
  name?: string;
  code?: string;
  type?: AccountType;
  tracking?: Tracking;
  subtype?: Subtype | null;
  groupId?: string | null;
}

/** A ledger account of the chart; owns the rules of D30-D31. */
export class LedgerAccount {
  private constructor(private state: LedgerAccountState) {}

  static open(input: Omit<LedgerAccountState, 'createdAt' | 'updatedAt'>, group: AccountGroup | null, now: Date): LedgerAccount {
    const account = new LedgerAccount({ ...input, code: input.code.trim(), name: input.name.trim(), createdAt: now, updatedAt: now });
    account.checkConsistency(group);
    return account;
  }

  static restore(state: LedgerAccountState): LedgerAccount {
    return new LedgerAccount({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get code(): string {
    return this.state.code;
  }
  get groupId(): string | null {
    return this.state.groupId;
  }
  get type(): AccountType {
    return this.state.type;
  }
  get tracking(): Tracking {
    return this.state.tracking;
  }
  get normalSide(): NormalSide {
    return normalSideOf(this.state.type);
  }

  /**
   * With entries, type changes stay in the family and tracking and subtype are locked
   * (D31); without entries anything consistent goes.
   */
  change(change: AccountChange, hasEntries: boolean, group: AccountGroup | null, now: Date): void {
    const next = { ...this.state };
    if (change.name !== undefined) next.name = change.name.trim();
    if (change.code !== undefined) next.code = change.code.trim();
    if (change.groupId !== undefined) next.groupId = change.groupId;
    if (change.type !== undefined && change.type !== this.state.type) {
      if (hasEntries && !sameFamily(change.type, this.state.type)) {
        throw ledgerAccountTypeLocked({ accountId: this.state.id, from: this.state.type, to: change.type });
      }
      next.type = change.type;
    }
    if (change.tracking !== undefined && change.tracking !== this.state.tracking) {
      if (hasEntries) throw ledgerAccountTrackingLocked({ accountId: this.state.id });
      next.tracking = change.tracking;
    }
    if (change.subtype !== undefined && change.subtype !== this.state.subtype) {
      if (hasEntries) throw ledgerAccountSubtypeLocked({ accountId: this.state.id });
      next.subtype = change.subtype;
    }
    const candidate = new LedgerAccount({ ...next, updatedAt: now });
    candidate.checkConsistency(group);
    this.state = candidate.state;
  }

  snapshot(): LedgerAccountState {
    return { ...this.state };
  }

  private checkConsistency(group: AccountGroup | null): void {
    const { type, tracking, subtype, code } = this.state;
    if (subtype && !subtypeFitsType(subtype, type)) throw subtypeTypeIncompatible({ subtype, type });
    if (subtype && !subtypeFitsTracking(subtype, tracking)) throw subtypeTrackingIncompatible({ subtype, tracking });
    if (group) {
      if (!sameFamily(group.type, type)) throw groupTypeIncompatible({ groupId: group.id, groupType: group.type, type });
      if (!code.startsWith(group.codePrefix)) {
        throw validationError('code', `must start with the group's code prefix ${group.codePrefix}`);
      }
    }
  }
}
