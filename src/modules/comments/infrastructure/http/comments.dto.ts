import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { IsUuid } from '../../../../platform/http/validators';
import { RECORD_HOST_KINDS, RecordHostKind } from '../../../record-hosts';

const TEXT_DOC = { minLength: 1, maxLength: 2000, description: '1 to 2,000 characters after trimming; stored trimmed' };

export class CommentHostQuery {
  @ApiProperty({ enum: RECORD_HOST_KINDS }) @IsIn(RECORD_HOST_KINDS) hostKind: RecordHostKind;
  @ApiProperty({ format: 'uuid' }) @IsUuid() hostId: string;
}

export class CreateCommentBody {
  @ApiProperty({ format: 'uuid' }) @IsUuid() id: string;
  @ApiProperty({ enum: RECORD_HOST_KINDS }) @IsIn(RECORD_HOST_KINDS) hostKind: RecordHostKind;
  @ApiProperty({ format: 'uuid' }) @IsUuid() hostId: string;
  // Length is judged after trimming (the service); this bound only stops huge strings early.
  @ApiProperty(TEXT_DOC) @IsString() @MaxLength(20_000) text: string;
}

/** Only the text changes: the host and the author are fixed (anything else is an unknown property, 400). */
export class UpdateCommentBody {
  @ApiProperty(TEXT_DOC) @IsString() @MaxLength(20_000) text: string;
}

export class CommentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ enum: RECORD_HOST_KINDS }) hostKind: RecordHostKind;
  @ApiProperty({ format: 'uuid' }) hostId: string;
  @ApiProperty({ format: 'uuid' }) authorUserId: string;
  @ApiProperty() text: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
