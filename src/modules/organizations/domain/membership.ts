export type MembershipRole = 'staff' | 'client' | 'viewer';
export const MEMBERSHIP_ROLES: readonly MembershipRole[] = ['staff', 'client', 'viewer'];

/** D16: a viewer reads but never mutates. */
export function membershipMayWrite(role: MembershipRole): boolean {
  return role !== 'viewer';
}

/** D17: To-dos belong to staff: global staff or a `staff` Membership of the Organization. */
export function membershipMayUseTodos(role: MembershipRole | null, globalRole: 'staff' | 'client'): boolean {
  return globalRole === 'staff' || role === 'staff';
}
