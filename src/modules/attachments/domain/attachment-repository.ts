import type { RecordHostKind } from '../../record-hosts';
import type { Attachment } from './attachment';

export abstract class AttachmentRepository {
  abstract insert(attachment: Attachment): Promise<void>;
  /** The attachment or slot on this host, locked for the transaction (FOR UPDATE); discarded ones are not found. */
  abstract lock(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null>;
  abstract find(entityId: string, hostKind: RecordHostKind, hostId: string, id: string): Promise<Attachment | null>;
  abstract confirm(entityId: string, id: string, filename: string, now: Date): Promise<void>;
  /**
   * One statement: the pending, unexpired slot on this host under `stored.objectKey`, whose size
   * and type are the stored object's, becomes confirmed (returned); null when any of that fails.
   */
  abstract confirmIfStored(
    slot: { entityId: string; hostKind: RecordHostKind; hostId: string; id: string },
    stored: { objectKey: string; byteSize: number; contentType: string },
    filename: string,
    now: Date,
  ): Promise<Attachment | null>;
  /** Confirmed attachments of the host, oldest first. */
  abstract listConfirmed(entityId: string, hostKind: RecordHostKind, hostId: string): Promise<Attachment[]>;
  abstract delete(entityId: string, id: string): Promise<void>;
  /** Every attachment of these records becomes `discarded` (invisible), for the sweeper. */
  abstract discardOfHosts(entityId: string, hostKind: RecordHostKind, hostIds: string[], now: Date): Promise<void>;
  /** Slots expired unconfirmed before `now`, and discarded attachments: locked, skipping locked ones. */
  abstract lockSweepable(now: Date, limit: number): Promise<Attachment[]>;
}
