import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated, StaffOnly } from '../../../../platform/auth/decorators';
import { FxRatesService } from '../../application/fx-rates.service';
import { EffectiveFxRateQuery, EffectiveFxRateResponse, FxRateResponse, FxRatesQuery, SyncFxRatesBody, SyncFxRatesResponse } from './fx-rates.dto';

@ApiTags('fx-rates')
@Authenticated()
@Controller('fx-rates')
export class FxRatesController {
  constructor(private readonly fx: FxRatesService) {}

  @Get()
  @ApiOkResponse({ type: FxRateResponse, isArray: true, description: 'D80: stored rates of the configured provider, by date then currency' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (`to` before `from`, unknown currency)' })
  list(@Query() query: FxRatesQuery): Promise<FxRateResponse[]> {
    return this.fx.list(query);
  }

  @Get('effective')
  @ApiOkResponse({ type: EffectiveFxRateResponse, description: 'The rate for a day: published that day, or the last one at most 7 days earlier (`rateDate` says which)' })
  @ApiNotFoundResponse({ description: 'FX_RATE_NOT_FOUND_ERROR: no rate stored on or before the day' })
  @ApiConflictResponse({ description: 'FX_RATE_STALE_ERROR: the last rate is more than 7 days older than the day' })
  effective(@Query() query: EffectiveFxRateQuery): Promise<EffectiveFxRateResponse> {
    return this.fx.rateOn(query.currency, query.date);
  }

  @Post('sync')
  @HttpCode(201)
  @StaffOnly()
  @Audit('fx_rates.sync', 'fx_rates', { ownTransaction: true })
  @ApiCreatedResponse({ type: SyncFxRatesResponse, description: 'D80, D80a: fetched and newly stored counts' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (`to` before `from`, a range over 3,660 days)' })
  @ApiBadGatewayResponse({ description: 'FX_PROVIDER_ERROR: the provider failed, was unreachable or too slow; nothing stored' })
  sync(@Body() body: SyncFxRatesBody): Promise<SyncFxRatesResponse> {
    return this.fx.sync(body);
  }
}
