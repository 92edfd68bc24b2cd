import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateIf } from 'class-validator';
import { IsIsoDate, IsUuid } from '../../../../platform/http/validators';
import type { Closing } from '../../domain/closing';

export class CloseExerciseBody {
  @ApiProperty({ format: 'uuid', description: 'The closing id, client-supplied (a reused id is 409 LEDGER_CLOSING_ALREADY_EXISTS_ERROR)' }) @IsUuid() id: string;
  @ApiProperty({ format: 'date', description: 'First day of the exercise' }) @IsIsoDate() exerciseStart: string;
  @ApiProperty({ format: 'date', description: 'Last day of the exercise: on or before the ledger lock date; the closing entry is dated on it' }) @IsIsoDate() exerciseEnd: string;
  @ApiProperty({ format: 'uuid', description: 'An account of type equity that takes the net result' }) @IsUuid() retainedEarningsAccountId: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'The Book closed; required once the Entity keeps Books, absent otherwise' })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsUuid()
  bookId?: string | null;
}

export class ClosingsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this Book's closings" }) @IsOptional() @IsUuid() bookId?: string;
}

export class ClosingResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) entityId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The Book closed; null for the common books' }) bookId: string | null;
  @ApiProperty({ format: 'date' }) exerciseStart: string;
  @ApiProperty({ format: 'date' }) exerciseEnd: string;
  @ApiProperty({ format: 'uuid' }) retainedEarningsAccountId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The closing entry (source `closing`); null when no Result Account had a balance' }) entryId: string | null;
  @ApiProperty({ description: 'The net result closed, minor units: profit positive, loss negative (D50 sign)' }) result: number;
  @ApiProperty({ enum: ['active', 'reopened'] }) status: 'active' | 'reopened';
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ClosingsResponse {
  @ApiProperty({ type: ClosingResponse, isArray: true, description: 'Every closing (active and reopened), newest exerciseEnd first' }) closings: ClosingResponse[];
}

export function closingResponse(closing: Closing): ClosingResponse {
  const s = closing.snapshot();
  return {
    id: s.id,
    entityId: s.entityId,
    bookId: s.bookId,
    exerciseStart: s.exerciseStart,
    exerciseEnd: s.exerciseEnd,
    retainedEarningsAccountId: s.retainedEarningsAccountId,
    entryId: s.entryId,
    result: s.result,
    status: s.status,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
