import { Body, Controller, Delete, Get, HttpCode, Param, Post, Type } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { AuditContext } from '../../../../platform/audit/audit-context';
import { Authenticated } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import type { RecordHostKind } from '../../../record-hosts';
import { AttachmentsService } from '../../application/attachments.service';
import type { Attachment } from '../../domain/attachment';
import { AttachmentResponse, AttachmentUrlResponse, ConfirmAttachmentBody, PresignAttachmentBody, PresignAttachmentResponse } from './attachments.dto';

export function presentAttachment(a: Attachment): AttachmentResponse {
  return {
    id: a.id,
    filename: a.filename,
    contentType: a.contentType,
    byteSize: a.byteSize,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

const HOST_404 = 'ATTACHMENT_HOST_NOT_FOUND_ERROR (`params { hostKind, hostId }`)';

/**
 * The five routes of one host kind (spec, Attachments). One class per kind, made here, so that
 * each kind keeps the spec's path and parameter name with no copy of the handlers.
 */
function attachmentsControllerFor(kind: RecordHostKind, hostPath: string, param: string): Type {
  @ApiTags('attachments')
  @Authenticated()
  @Controller(`entities/:entityId/${hostPath}/:${param}/attachments`)
  class AttachmentsController {
    constructor(
      readonly attachments: AttachmentsService,
      readonly audit: AuditContext,
    ) {}

    @Post('presign')
    @HttpCode(200)
    @Audit('attachment.presign', 'attachment', { singleStatement: true })
    @ApiOkResponse({ type: PresignAttachmentResponse, description: 'An upload slot and the URL to PUT the bytes to' })
    @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: file name, content type (one of seven) or byteSize (1 to 26,214,400)' })
    @ApiNotFoundResponse({ description: HOST_404 })
    async presign(@Param('entityId') entityId: string, @Param(param) hostId: string, @Body() body: PresignAttachmentBody): Promise<PresignAttachmentResponse> {
      const slot = await this.attachments.presign({ entityId, hostKind: kind, hostId }, body);
      this.audit.describe({ resourceId: slot.attachmentId });
      return slot;
    }

    @Post('confirm')
    @HttpCode(200)
    @Audit('attachment.confirm', 'attachment', { singleStatement: true })
    @ApiOkResponse({ type: AttachmentResponse, description: 'The attachment, its object read back from the store' })
    @ApiNotFoundResponse({ description: `${HOST_404} or ATTACHMENT_NOT_FOUND_ERROR (no slot on this host: never presigned, of another host, or swept)` })
    @ApiConflictResponse({
      description: 'ATTACHMENT_ALREADY_EXISTS_ERROR, ATTACHMENT_NOT_UPLOADED_ERROR (no object: not PUT yet; or the slot expired) or ATTACHMENT_UPLOAD_MISMATCH_ERROR',
    })
    async confirm(@Param('entityId') entityId: string, @Param(param) hostId: string, @Body() body: ConfirmAttachmentBody): Promise<AttachmentResponse> {
      return presentAttachment(await this.attachments.confirm({ entityId, hostKind: kind, hostId }, body.attachmentId, body.filename));
    }

    @Get()
    @ApiOkResponse({ type: AttachmentResponse, isArray: true, description: 'The confirmed attachments, oldest first' })
    @ApiNotFoundResponse({ description: HOST_404 })
    async list(@Param('entityId') entityId: string, @Param(param) hostId: string): Promise<AttachmentResponse[]> {
      return (await this.attachments.list({ entityId, hostKind: kind, hostId })).map(presentAttachment);
    }

    @Get(':attachmentId/url')
    @ApiOkResponse({ type: AttachmentUrlResponse, description: 'A download link valid 5 minutes' })
    @ApiNotFoundResponse({ description: `${HOST_404} or ATTACHMENT_NOT_FOUND_ERROR` })
    url(@Param('entityId') entityId: string, @Param(param) hostId: string, @Param('attachmentId') attachmentId: string): Promise<AttachmentUrlResponse> {
      return this.attachments.downloadUrl({ entityId, hostKind: kind, hostId }, attachmentId);
    }

    @Delete(':attachmentId')
    @HttpCode(204)
    @Audit('attachment.delete', 'attachment', { ownTransaction: true })
    @ApiNoContentResponse({ description: 'The object and the attachment are removed' })
    @ApiNotFoundResponse({ description: `${HOST_404} or ATTACHMENT_NOT_FOUND_ERROR` })
    async delete(
      @Param('entityId') entityId: string,
      @Param(param) hostId: string,
      @Param('attachmentId') attachmentId: string,
      @NoBody() _body: unknown,
    ): Promise<void> {
      await this.attachments.delete({ entityId, hostKind: kind, hostId }, attachmentId);
    }
  }
  const name = `${kind.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}AttachmentsController`;
  Object.defineProperty(AttachmentsController, 'name', { value: name });
  return AttachmentsController;
}

export const ATTACHMENTS_CONTROLLERS: Type[] = [
  attachmentsControllerFor('invoice', 'invoices', 'invoiceId'),
  attachmentsControllerFor('bank_movement', 'bank-movements', 'movementId'),
  attachmentsControllerFor('ledger_entry', 'ledger/entries', 'entryId'),
];
