import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsUuid, NotBlank } from '../../../../platform/http/validators';
import { ATTACHMENT_CONTENT_TYPES, ATTACHMENT_FILENAME_MAX, ATTACHMENT_MAX_BYTES, AttachmentContentType } from '../../domain/attachment';

const FILENAME_DOC = {
  example: 'factura-1234.pdf',
  minLength: 1,
  maxLength: ATTACHMENT_FILENAME_MAX,
  description: 'Kept as sent; never part of the object key; the download names the file by its last path segment, in safe characters',
};

/** 1 to 255 characters, not blank, no control characters (NUL, line breaks...). */
function Filename(): PropertyDecorator {
  return (target, key) => {
    IsString()(target, key);
    IsNotEmpty()(target, key);
    NotBlank()(target, key);
    MaxLength(ATTACHMENT_FILENAME_MAX)(target, key);
    // eslint-disable-next-line no-control-regex
    Matches(/^[^\u0000-\u001f\u007f]*$/, { message: '$property must not contain control characters' })(target, key);
  };
}

export class PresignAttachmentBody {
  @ApiProperty(FILENAME_DOC) @Filename() filename: string;
  @ApiProperty({ enum: ATTACHMENT_CONTENT_TYPES }) @IsIn(ATTACHMENT_CONTENT_TYPES) contentType: AttachmentContentType;
  @ApiProperty({ minimum: 1, maximum: ATTACHMENT_MAX_BYTES, description: 'Bytes the client will PUT; the signed URL binds this length' })
  @IsInt()
  @Min(1)
  @Max(ATTACHMENT_MAX_BYTES)
  byteSize: number;
}

export class ConfirmAttachmentBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() attachmentId: string;
  @ApiProperty({ ...FILENAME_DOC, description: 'The attachment\'s file name (may differ from the presigned one)' }) @Filename() filename: string;
}

export class PresignAttachmentResponse {
  @ApiProperty({ format: 'uuid' }) attachmentId: string;
  @ApiProperty({ description: 'PUT the bytes here within 15 minutes, with exactly the presigned Content-Type and Content-Length' }) url: string;
}

export class AttachmentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() filename: string;
  @ApiProperty({ enum: ATTACHMENT_CONTENT_TYPES }) contentType: AttachmentContentType;
  @ApiProperty() byteSize: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class AttachmentUrlResponse {
  @ApiProperty({ description: 'GET within 5 minutes; answered as a download under the file name' }) url: string;
}
