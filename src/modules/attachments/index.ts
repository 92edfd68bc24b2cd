// The attachments module's API.
export { AttachmentsModule } from './attachments.module';
export { AttachmentsService } from './application/attachments.service';
export { AttachmentSweeper, SWEEP_LOCK_KEY } from './application/attachment-sweeper';
export type { SweepResult } from './application/attachment-sweeper';
export { ATTACHMENT_CONTENT_TYPES, ATTACHMENT_MAX_BYTES } from './domain/attachment';
import { AttachmentRecord } from './infrastructure/persistence/attachment.record';
export const ATTACHMENT_RECORDS = [AttachmentRecord];
