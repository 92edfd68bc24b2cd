import { characterCount, DomainError, nameKey, nameProblem, normalizeName } from '../../../../libs/shared-kernel/src';

export const ORGANIZATION_NAME_MAX = 200;

/** Why a name is refused, or null; the name is judged as stored: NFC and trimmed (D30b). */
export function organizationNameProblem(raw: string): string | null {
  const name = normalizeName(raw);
  // Characters as a person counts them (code points), not UTF-16 units: an emoji is one.
  const length = characterCount(name);
  if (length < 1 || length > ORGANIZATION_NAME_MAX) return `name must be 1 to ${ORGANIZATION_NAME_MAX} characters after trimming`;
  const problem = nameProblem(name);
  return problem ? `name ${problem}` : null;
}

/** Names are unique ignoring case, in their normalised form (D30b): this is the key they are compared by. */
export function organizationNameKey(name: string): string {
  return nameKey(name);
}

export interface OrganizationState {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A group of Entities; its Memberships reach every Entity in it, including later ones. */
export class Organization {
  private constructor(private state: OrganizationState) {}

  static create(id: string, name: string, now: Date): Organization {
    return new Organization({ id, name: Organization.acceptName(name), createdAt: now, updatedAt: now });
  }

  static restore(state: OrganizationState): Organization {
    return new Organization({ ...state });
  }

  private static acceptName(raw: string): string {
    const problem = organizationNameProblem(raw);
    if (problem) throw new DomainError('VALIDATION_ERROR', problem, { errors: [{ path: 'name', message: problem }] });
    return normalizeName(raw);
  }

  get id(): string {
    return this.state.id;
  }
  get name(): string {
    return this.state.name;
  }
  get nameKey(): string {
    return organizationNameKey(this.state.name);
  }
  get createdAt(): Date {
    return this.state.createdAt;
  }

  rename(name: string, now: Date): void {
    this.state = { ...this.state, name: Organization.acceptName(name), updatedAt: now };
  }

  snapshot(): OrganizationState {
    return { ...this.state };
  }
}

/**
 * D20: the Organization made for an Entity created without one is named after it, with
 * ` (2)`, ` (3)` ... when that name is taken.
 */
export function candidateOrganizationName(base: string, attempt: number): string {
  const suffix = attempt <= 1 ? '' : ` (${attempt})`;
  return [...base.trim()].slice(0, ORGANIZATION_NAME_MAX - suffix.length).join('').trimEnd() + suffix;
}
