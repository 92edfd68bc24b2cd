import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newId } from '../../../../libs/shared-kernel/src';
import { AuditContext } from '../../../platform/audit/audit-context';
import { OfferedAuditRow } from '../../../platform/audit/offered-audit-row';
import { Clock } from '../../../platform/clock/clock';
import { ObjectStore, StoredObject } from '../../../platform/object-store/object-store';
import { RecordHostKind, RecordHosts } from '../../record-hosts';
import {
  Attachment,
  AttachmentContentType,
  attachmentAlreadyExists,
  attachmentBeingConfirmed,
  attachmentHostNotFound,
  attachmentNotFound,
  attachmentNotUploaded,
  attachmentUploadMismatch,
  CONFIRM_CLAIM_SECONDS,
  CONFIRM_GRACE_SECONDS,
  DOWNLOAD_URL_SECONDS,
  objectKeyOf,
  UPLOAD_URL_SECONDS,
  uploadKeyOf,
} from '../domain/attachment';
import { AttachmentRepository, HostHoldQuery } from '../domain/attachment-repository';

export interface AttachmentHostRef {
  entityId: string;
  hostKind: RecordHostKind;
  hostId: string;
}

/**
 * Spec, Attachment upload: presign (an upload slot), the client's own PUT to the store, confirm
 * (the stored object's metadata read back), list, download URL, delete. The bytes never pass
 * through this service. Each write use case owns its transaction (@Transactional; joins the request's),
 * but presign and confirm (issue 21: p99 under 30 ms) are one statement each in the usual case,
 * the host held, the row written and the request's audit row inserted together (the routes are
 * single-statement routes, see AuditDescription), with no transaction around them.
 */
@Injectable()
export class AttachmentsService {
  private readonly logger = new Logger(AttachmentsService.name);

  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly hosts: RecordHosts,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly auditContext: AuditContext,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly auditRow: OfferedAuditRow,
  ) {}

  /** One statement: the host held, the slot and the audit row inserted only when the host is there. */
  async presign(host: AttachmentHostRef, input: { filename: string; contentType: AttachmentContentType; byteSize: number }): Promise<{ attachmentId: string; url: string }> {
    const hostHold = this.hostHold(host);
    const now = this.clock.now();
    const id = newId();
    const objectKey = objectKeyOf(host.entityId, host.hostKind, host.hostId, id);
    const slot: Attachment = {
      ...host,
      id,
      objectKey,
      filename: input.filename,
      contentType: input.contentType,
      byteSize: input.byteSize,
      state: 'pending',
      expiresAt: new Date(now.getTime() + (UPLOAD_URL_SECONDS + CONFIRM_GRACE_SECONDS) * 1000),
      createdAt: now,
      updatedAt: now,
    };
    const url = await this.store.presignPut({ key: uploadKeyOf(objectKey), contentType: input.contentType, byteSize: input.byteSize, signedAt: now, expiresInSeconds: UPLOAD_URL_SECONDS });
    if (!(await this.attachments.insertOnHost(slot, hostHold, this.auditContext.statementRow(id)))) throw attachmentHostNotFound(host.hostKind, host.hostId);
    return { attachmentId: id, url };
  }

  /**
   * D70's order: no slot on this host 404 attachment not found; confirmed 409 exists; an expired
   * slot or no object 409 not uploaded; another size or type 409 mismatch. Issue 21: the store's
   * HEAD of the uploaded object first, then in the usual case a few single statements, no
   * transaction. Issue 33: the upload URL names `uploads/<key>` (uploadKeyOf), never the
   * attachment's key: the slot is claimed (one statement: pending, in time, the stored size and
   * type), the store copies the upload to the attachment's key, one statement holds the host and
   * confirms the claimed slot (with the audit row), and the upload is removed. A PUT replayed
   * with the URL afterwards writes under `uploads/` only, which the sweeper clears; two
   * confirmations never both copy (one claim). Only when no claim is won is the slot locked
   * and read, in a transaction, to say why.
   */
  async confirm(host: AttachmentHostRef, attachmentId: string, filename: string): Promise<Attachment> {
    const hostHold = this.hostHold(host);
    const objectKey = objectKeyOf(host.entityId, host.hostKind, host.hostId, attachmentId);
    const uploadKey = uploadKeyOf(objectKey);
    const early = await this.store.head(uploadKey).then(
      (stored) => ({ stored }),
      (error: unknown) => ({ error }),
    );
    // A claim released meanwhile (another confirmation's copy failed) may be claimed again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if ('stored' in early && early.stored?.contentType) {
        const stored = { objectKey, byteSize: early.stored.byteSize, contentType: early.stored.contentType };
        const confirmed = await this.confirmStored(host, attachmentId, filename, uploadKey, stored, hostHold);
        if (confirmed) return confirmed;
      }
      await this.txHost.withTransaction(() => this.sayWhyNot(host, attachmentId, early));
    }
    throw attachmentBeingConfirmed({ attachmentId });
  }

  /** Claim, copy, confirm, remove the upload; null when the slot could not be claimed or confirmed (the caller says why). */
  private async confirmStored(
    host: AttachmentHostRef,
    attachmentId: string,
    filename: string,
    uploadKey: string,
    stored: { objectKey: string; byteSize: number; contentType: string },
    hostHold: HostHoldQuery,
  ): Promise<Attachment | null> {
    const slot = { ...host, id: attachmentId };
    const claim = newId();
    const claimedAt = this.clock.now();
    const until = new Date(claimedAt.getTime() + CONFIRM_CLAIM_SECONDS * 1000);
    if (!(await this.attachments.claimConfirmation(slot, stored, claim, claimedAt, until))) return null;
    const release = () => this.attachments.releaseClaim(host.entityId, attachmentId, claim).catch(() => undefined);
    try {
      await this.store.copy(uploadKey, stored.objectKey);
    } catch (error) {
      await release();
      throw error;
    }
    const done = await this.attachments.confirmOnHost(slot, stored, filename, this.clock.now(), hostHold, this.auditContext.statementRow(attachmentId), claim);
    if (!done.confirmed) {
      // The copy under the attachment's key goes with the slot (the sweeper removes both keys).
      await release();
      if (!done.hostFound) throw attachmentHostNotFound(host.hostKind, host.hostId);
      return null;
    }
    await this.store.delete(uploadKey).catch((error: unknown) => this.logger.warn(`Attachment ${attachmentId}: upload not removed (${String(error)}); the sweeper will`));
    return done.confirmed;
  }

  /**
   * Confirm's slow path: the host held, the slot locked and read; D70's refusal. Returns (nothing
   * to refuse) only when the slot is confirmable and unclaimed: the caller claims it again.
   */
  private async sayWhyNot(host: AttachmentHostRef, attachmentId: string, early: { stored: StoredObject | null } | { error: unknown }): Promise<void> {
    await this.holdHost(host);
    const now = this.clock.now();
    const slot = await this.attachments.lock(host.entityId, host.hostKind, host.hostId, attachmentId);
    // No slot on this host (never presigned, of another host, or swept): the attachment is
    // missing, D70's 404. A slot whose time to confirm has passed: its upload is not (or no
    // longer) accepted, 409 not uploaded.
    if (!slot) throw attachmentNotFound({ attachmentId });
    if (slot.state === 'confirmed') throw attachmentAlreadyExists({ attachmentId });
    if (slot.expiresAt <= now) throw attachmentNotUploaded({ attachmentId });
    // The store's answer counts only now: D70's 404 and 409s above do not depend on it.
    if ('error' in early) throw early.error;
    const stored = early.stored;
    if (!stored) throw attachmentNotUploaded({ attachmentId });
    if (stored.byteSize !== slot.byteSize || stored.contentType !== slot.contentType) {
      throw attachmentUploadMismatch({
        attachmentId,
        expected: { byteSize: slot.byteSize, contentType: slot.contentType },
        stored: { byteSize: stored.byteSize, contentType: stored.contentType },
      });
    }
    // Another request is copying and confirming this upload now.
    if (slot.confirmClaimedUntil && slot.confirmClaimedUntil > now) throw attachmentBeingConfirmed({ attachmentId });
  }

  async list(host: AttachmentHostRef): Promise<Attachment[]> {
    await this.requireHost(host);
    return this.attachments.listConfirmed(host.entityId, host.hostKind, host.hostId);
  }

  async downloadUrl(host: AttachmentHostRef, attachmentId: string): Promise<{ url: string }> {
    await this.requireHost(host);
    const attachment = await this.attachments.find(host.entityId, host.hostKind, host.hostId, attachmentId);
    if (attachment?.state !== 'confirmed') throw attachmentNotFound({ attachmentId });
    const url = await this.store.presignGet({
      key: attachment.objectKey,
      filename: attachment.filename,
      contentType: attachment.contentType,
      signedAt: this.clock.now(),
      expiresInSeconds: DOWNLOAD_URL_SECONDS,
    });
    return { url };
  }

  /**
   * Issue 33: no store call inside the transaction (no pooled connection waits on the store). The
   * attachment is locked, marked `discarded` (gone from every answer) and audited in one
   * transaction; after the commit the store removes its object (and any upload left under
   * `uploads/`), then the row goes. A store that fails leaves the row discarded: the sweeper
   * removes the object and the row later.
   */
  async delete(host: AttachmentHostRef, attachmentId: string): Promise<Attachment> {
    const attachment = await this.txHost.withTransaction(async () => {
      await this.holdHost(host);
      const found = await this.attachments.lock(host.entityId, host.hostKind, host.hostId, attachmentId);
      if (found?.state !== 'confirmed') throw attachmentNotFound({ attachmentId });
      await this.attachments.discard(host.entityId, attachmentId, this.clock.now());
      await this.auditRow.record(attachmentId);
      return found;
    });
    try {
      await this.store.delete(attachment.objectKey);
      await this.store.delete(uploadKeyOf(attachment.objectKey));
      await this.attachments.delete(host.entityId, attachmentId);
    } catch (error) {
      this.logger.warn(`Attachment ${attachmentId}: object not removed after its deletion (${String(error)}); the sweeper will`);
    }
    return attachment;
  }

  /** Reads: the host must exist; nothing to hold. */
  private async requireHost(host: AttachmentHostRef): Promise<void> {
    if (!(await this.hosts.exists(host.entityId, host.hostKind, host.hostId))) throw attachmentHostNotFound(host.hostKind, host.hostId);
  }

  /** The host's hold as SQL for one statement (Entity `$1`, host `$2`); a kind not built has no host. */
  private hostHold(host: AttachmentHostRef): HostHoldQuery {
    const query = this.hosts.holdQuery(host.hostKind);
    if (query === null) throw attachmentHostNotFound(host.hostKind, host.hostId);
    return query;
  }

  private async holdHost(host: AttachmentHostRef): Promise<void> {
    if (!(await this.hosts.hold(host.entityId, host.hostKind, host.hostId))) throw attachmentHostNotFound(host.hostKind, host.hostId);
  }
}
