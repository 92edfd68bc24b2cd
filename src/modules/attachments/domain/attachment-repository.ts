import type { AuditRecord } from '../../../platform/audit/audit-recorder';
import type { RecordHostKind } from '../../record-hosts';
import type { Attachment } from './attachment';

/** A host's hold as SQL (RecordHosts.holdQuery with the Entity id as `$1` and the host id as `$2`). */
export type HostHoldQuery = string;

export abstract class AttachmentRepository {
  /**
   * Presign's one statement (one round trip, atomic without a transaction): holds the host
   * (`hostHold`), inserts the slot only when the host was found, and with `audit` the request's
   * audit row only when the slot was written. False when there is no host.
   */
  abstract insertOnHost(slot: Attachment, hostHold: HostHoldQuery, audit: AuditRecord | null): Promise<boolean>;
  /**
   * Issue 33: the pending, unexpired slot whose size and type are `stored`'s, and that no other
   * confirmation holds (or whose hold ended by `now`), is held by `claim` until `until`. False
   * when it is not.
   */
  abstract claimConfirmation(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { byteSize: number; contentType: string },
    claim: string,
    now: Date,
    until: Date,
  ): Promise<boolean>;
  /** Ends `claim`'s hold on the slot (nothing when another holds it now). */
  abstract releaseClaim(entityId: string, id: string, claim: string): Promise<void>;
  /**
   * Confirm's one statement: holds the host; when it was found, the pending, unexpired slot on
   * it held by `claim`, under `stored.objectKey`, whose size and type are the stored object's, becomes confirmed;
   * with `audit` the request's audit row when the slot was confirmed. `hostFound` false: no host
   * (nothing written); `confirmed` null: the slot could not be confirmed as stored.
   */
  abstract confirmOnHost(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { objectKey: string; byteSize: number; contentType: string },
    filename: string,
    now: Date,
    hostHold: HostHoldQuery,
    audit: AuditRecord | null,
    claim: string,
  ): Promise<{ hostFound: boolean; confirmed: Attachment | null }>;
  /** The attachment or slot on this host, locked for the transaction (FOR UPDATE); discarded ones are not found. */
  abstract lock(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null>;
  abstract find(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null>;
  /** Confirmed attachments of the host, oldest first. */
  abstract listConfirmed(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Attachment[]>;
  abstract delete(entityId: string, id: string): Promise<void>;
  /** The attachment becomes `discarded` (invisible; its objects removed after the commit, or by the sweeper). */
  abstract discard(entityId: string, id: string, now: Date): Promise<void>;
  /** Every attachment of these records becomes `discarded` (invisible), for the sweeper. */
  abstract discardOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[], now: Date): Promise<void>;
  /** Slots expired unconfirmed before `now`, and discarded attachments: locked, skipping locked ones. */
  /** Entities with upload slots due for the sweep (a read over every Entity, without locks). */
  abstract entitiesWithSweepable(now: Date, limit: number): Promise<string[]>;
  /** One Entity's due slots, locked (SKIP LOCKED): the sweep works per Entity (D94, one shard at a time). */
  abstract lockSweepable(entityId: string, now: Date, limit: number): Promise<Attachment[]>;
}
