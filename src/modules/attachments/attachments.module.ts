import { Module } from '@nestjs/common';
import { RecordHostsModule } from '../record-hosts';
import { AttachmentSweeper } from './application/attachment-sweeper';
import { AttachmentsService } from './application/attachments.service';
import { AttachmentRepository } from './domain/attachment-repository';
import { AttachmentsHostListener } from './infrastructure/attachments-host-listener';
import { ATTACHMENTS_CONTROLLERS } from './infrastructure/http/attachments.controller';
import { SqlAttachmentRepository } from './infrastructure/persistence/attachment.repository';

/** Attachments of invoices, bank movements and ledger entries, stored in S3 (spec, Attachments; D70, D79). */
@Module({
  imports: [RecordHostsModule],
  controllers: ATTACHMENTS_CONTROLLERS,
  providers: [{ provide: AttachmentRepository, useClass: SqlAttachmentRepository }, AttachmentsService, AttachmentSweeper, AttachmentsHostListener],
  exports: [AttachmentsService, AttachmentSweeper],
})
export class AttachmentsModule {}
