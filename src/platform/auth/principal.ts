import type { Request } from 'express';
import type { TenantScope } from './ports';

export type GlobalRole = 'staff' | 'client';

/** The verified caller of a request. */
export interface Principal {
  user: { id: string; email: string; name: string; role: GlobalRole };
  credential: 'session' | 'api_key';
  apiKey?: {
    id: string;
    /** `{ "erp": ["read"] }`: GET and HEAD only. */
    readOnly: boolean;
    /** Confines the key to one Entity (D13). */
    entityId: string | null;
    /** D14: counted when the key was authenticated, in the same database call. */
    rateLimit: { allowed: boolean; retryAfterSeconds: number };
  };
  /** The tenant scope of the route's Entity, read with the credential (null: no such Entity). */
  tenantScope?: { entityId: string; scope: TenantScope | null };
}

export type RequestWithPrincipal = Request & { principal?: Principal; id: string };

export function principalOf(request: Request): Principal | undefined {
  return (request as RequestWithPrincipal).principal;
}

export function isReadMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
