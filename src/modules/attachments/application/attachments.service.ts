import { Injectable } from '@nestjs/common';
import { Transactional, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { newId } from '../../../../libs/shared-kernel/src';
import { AuditContext } from '../../../platform/audit/audit-context';
import { Clock } from '../../../platform/clock/clock';
import { ObjectStore, StoredObject } from '../../../platform/object-store/object-store';
import { RecordHostKind, RecordHosts } from '../../record-hosts';
import {
  Attachment,
  AttachmentContentType,
  attachmentAlreadyExists,
  attachmentHostNotFound,
  attachmentNotFound,
  attachmentNotUploaded,
  attachmentUploadMismatch,
  CONFIRM_GRACE_SECONDS,
  DOWNLOAD_URL_SECONDS,
  objectKeyOf,
  UPLOAD_URL_SECONDS,
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
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly hosts: RecordHosts,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly auditContext: AuditContext,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
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
    const url = await this.store.presignPut({ key: objectKey, contentType: input.contentType, byteSize: input.byteSize, signedAt: now, expiresInSeconds: UPLOAD_URL_SECONDS });
    if (!(await this.attachments.insertOnHost(slot, hostHold, this.auditContext.statementRow(id)))) throw attachmentHostNotFound(host.hostKind, host.hostId);
    return { attachmentId: id, url };
  }

  /**
   * D70's order: no slot on this host 404 attachment not found; confirmed 409 exists; an expired
   * slot or no object 409 not uploaded; another size or type 409 mismatch. Issue 21: the store's HEAD of the key the slot was given (objectKeyOf) first,
   * then in the usual case one statement holds the host and confirms the slot as stored (with the
   * audit row). Only when it confirms nothing is the slot locked and read, in a transaction, to
   * say why.
   */
  async confirm(host: AttachmentHostRef, attachmentId: string, filename: string): Promise<Attachment> {
    const hostHold = this.hostHold(host);
    const objectKey = objectKeyOf(host.entityId, host.hostKind, host.hostId, attachmentId);
    const early = await this.store.head(objectKey).then(
      (stored) => ({ stored }),
      (error: unknown) => ({ error }),
    );
    const contentType = 'stored' in early ? early.stored?.contentType : null;
    if ('stored' in early && early.stored && contentType) {
      const stored = { objectKey, byteSize: early.stored.byteSize, contentType };
      const done = await this.attachments.confirmOnHost({ ...host, id: attachmentId }, stored, filename, this.clock.now(), hostHold, this.auditContext.statementRow(attachmentId));
      if (!done.hostFound) throw attachmentHostNotFound(host.hostKind, host.hostId);
      if (done.confirmed) return done.confirmed;
    }
    return this.txHost.withTransaction(() => this.confirmOrSayWhy(host, attachmentId, filename, objectKey, hostHold, early));
  }

  /** Confirm's slow path: the host held, the slot locked and read; D70's refusal, or the confirmation when the fast statement lost a race. */
  private async confirmOrSayWhy(
    host: AttachmentHostRef,
    attachmentId: string,
    filename: string,
    objectKey: string,
    hostHold: HostHoldQuery,
    early: { stored: StoredObject | null } | { error: unknown },
  ): Promise<Attachment> {
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
    const done = await this.attachments.confirmOnHost(
      { ...host, id: attachmentId },
      { objectKey: slot.objectKey, byteSize: stored.byteSize, contentType: slot.contentType },
      filename,
      now,
      hostHold,
      this.auditContext.statementRow(attachmentId),
    );
    // The slot is locked and was read confirmable: the statement confirms it.
    if (!done.confirmed) throw attachmentNotUploaded({ attachmentId });
    return done.confirmed;
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
   * The object first, then the record: a failure of the store leaves both; never a record
   * without its object. (Only a commit failing after the object went could leave one; its
   * download would then answer the store's 404.)
   */
  @Transactional()
  async delete(host: AttachmentHostRef, attachmentId: string): Promise<Attachment> {
    await this.holdHost(host);
    const attachment = await this.attachments.lock(host.entityId, host.hostKind, host.hostId, attachmentId);
    if (attachment?.state !== 'confirmed') throw attachmentNotFound({ attachmentId });
    await this.store.delete(attachment.objectKey);
    await this.attachments.delete(host.entityId, attachmentId);
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
