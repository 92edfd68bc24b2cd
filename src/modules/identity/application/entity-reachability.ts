/**
 * Port: can a User reach an Entity (global staff: any existing Entity; others: through a
 * Membership)? Provided by the organizations module.
 */
export abstract class EntityReachability {
  abstract canReach(user: { id: string; role: 'staff' | 'client' }, entityId: string): Promise<boolean>;
}
