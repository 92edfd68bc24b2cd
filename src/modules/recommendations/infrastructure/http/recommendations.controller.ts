import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { Authenticated } from '../../../../platform/auth/decorators';
import { IsUuid } from '../../../../platform/http/validators';
import { RecommendationsService } from '../../application/recommendations.service';

class RecommendationsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Exactly one of bankMovementId and invoiceId' }) @IsOptional() @IsUuid() bankMovementId?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Exactly one of bankMovementId and invoiceId' }) @IsOptional() @IsUuid() invoiceId?: string;
}

class RecommendationResponse {
  @ApiProperty({ format: 'uuid', description: 'Counter account' }) ledgerAccountId: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) partnerId: string | null;
  @ApiProperty({ type: [String], format: 'uuid' }) dimensionValueIds: string[];
  @ApiProperty({ type: 'number', format: 'double', minimum: 0, exclusiveMinimum: true, maximum: 1, example: 0.82 }) confidence: number;
  @ApiProperty({ description: 'Similar booked records booked this way' }) basedOnCount: number;
  @ApiProperty({ example: '3 similar records were booked this way, sharing the same counterparty RUT and description words "arriendo", "oficina".' })
  reason: string;
}

@ApiTags('recommendations')
@Authenticated()
@Controller('entities/:entityId/recommendations')
export class RecommendationsController {
  constructor(private readonly recommendations: RecommendationsService) {}

  @Get()
  @ApiOkResponse({ type: RecommendationResponse, isArray: true, description: 'D73, D73a: best first; [] when no booked record is similar' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: not exactly one of bankMovementId and invoiceId' })
  @ApiNotFoundResponse({ description: 'BANK_MOVEMENT_NOT_FOUND_ERROR or INVOICE_NOT_FOUND_ERROR' })
  list(@Param('entityId') entityId: string, @Query() query: RecommendationsQuery): Promise<RecommendationResponse[]> {
    if ((query.bankMovementId === undefined) === (query.invoiceId === undefined)) {
      throw validationError('query', 'must name exactly one of bankMovementId and invoiceId');
    }
    return query.bankMovementId !== undefined
      ? this.recommendations.recommend(entityId, 'bank_movement', query.bankMovementId)
      : this.recommendations.recommend(entityId, 'invoice', query.invoiceId!);
  }
}
