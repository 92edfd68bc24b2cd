import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { newId } from '../../../../libs/shared-kernel/src';
import { Clock } from '../../../platform/clock/clock';
import { ObjectStore } from '../../../platform/object-store/object-store';
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
import { AttachmentRepository } from '../domain/attachment-repository';

export interface AttachmentHostRef {
  entityId: string;
  hostKind: RecordHostKind;
  hostId: string;
}

/**
 * Spec, Attachment upload: presign (an upload slot), the client's own PUT to the store, confirm
 * (the stored object's metadata read back), list, download URL, delete. The bytes never pass
 * through this service. Each write use case owns its transaction (@Transactional; joins the request's).
 */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly hosts: RecordHosts,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  @Transactional()
  async presign(host: AttachmentHostRef, input: { filename: string; contentType: AttachmentContentType; byteSize: number }): Promise<{ attachmentId: string; url: string }> {
    await this.holdHost(host);
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
    await this.attachments.insert(slot);
    return { attachmentId: id, url };
  }

  /**
   * D70's order: confirmed 409 exists; no slot or no object 409 not uploaded; another size or type
   * 409 mismatch. Issue 21: the store's HEAD of the key the slot was given (objectKeyOf) is asked
   * at once, while the host is read, and the usual case is then one UPDATE; only when it confirms
   * nothing is the slot locked and read to say why.
   */
  @Transactional()
  async confirm(host: AttachmentHostRef, attachmentId: string, filename: string): Promise<Attachment> {
    const objectKey = objectKeyOf(host.entityId, host.hostKind, host.hostId, attachmentId);
    const head = this.store.head(objectKey);
    head.catch(() => undefined); // awaited below, unless the host is refused first
    await this.holdHost(host);
    const now = this.clock.now();
    const early = await head;
    if (early?.contentType) {
      const confirmed = await this.attachments.confirmIfStored({ ...host, id: attachmentId }, { objectKey, byteSize: early.byteSize, contentType: early.contentType }, filename, now);
      if (confirmed) return confirmed;
    }
    const slot = await this.attachments.lock(host.entityId, host.hostKind, host.hostId, attachmentId);
    if (slot?.state === 'confirmed') throw attachmentAlreadyExists({ attachmentId });
    // No slot (never presigned, expired or swept): no object can be under its key, D70's 409.
    if (!slot || slot.expiresAt <= now) throw attachmentNotUploaded({ attachmentId });
    const stored = slot.objectKey === objectKey ? early : await this.store.head(slot.objectKey);
    if (!stored) throw attachmentNotUploaded({ attachmentId });
    if (stored.byteSize !== slot.byteSize || stored.contentType !== slot.contentType) {
      throw attachmentUploadMismatch({
        attachmentId,
        expected: { byteSize: slot.byteSize, contentType: slot.contentType },
        stored: { byteSize: stored.byteSize, contentType: stored.contentType },
      });
    }
    await this.attachments.confirm(host.entityId, attachmentId, filename, now);
    return { ...slot, filename, state: 'confirmed', createdAt: now, updatedAt: now };
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

  private async holdHost(host: AttachmentHostRef): Promise<void> {
    if (!(await this.hosts.hold(host.entityId, host.hostKind, host.hostId))) throw attachmentHostNotFound(host.hostKind, host.hostId);
  }
}
