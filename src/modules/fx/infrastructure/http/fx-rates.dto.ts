import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsIsoDate } from '../../../../platform/http/validators';
import { FX_CURRENCIES } from '../../domain/fx-rate';

export class FxRatesQuery {
  @ApiPropertyOptional({ format: 'date', description: 'Inclusive (D64a); default 29 days before `to`' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Inclusive (D64a); default today' }) @IsOptional() @IsIsoDate() to?: string;
  @ApiPropertyOptional({ enum: FX_CURRENCIES, description: 'Only this currency' }) @IsOptional() @IsIn(FX_CURRENCIES) currency?: string;
}

export class EffectiveFxRateQuery {
  @ApiProperty({ enum: FX_CURRENCIES, description: 'A published currency, or the functional currency (rate 1)' })
  @IsIn([...FX_CURRENCIES, 'CLP'])
  currency: string;
  @ApiProperty({ format: 'date', description: 'The day the rate is wanted for' }) @IsIsoDate() date: string;
}

export class SyncFxRatesBody {
  @ApiPropertyOptional({ format: 'date', description: 'Default 29 days before `to`' }) @IsOptional() @IsIsoDate() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Default today (a later day too: the CMF has nothing for it, the offline adapter answers every day)' }) @IsOptional() @IsIsoDate() to?: string;
}

export class FxRateResponse {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'CLP' }) functionalCurrency: string;
  @ApiProperty({ example: '950.12', description: '1 currency = rate functionalCurrency; a plain decimal string (D7)' }) rate: string;
  @ApiProperty({ enum: ['offline', 'cmf'] }) source: string;
}

export class EffectiveFxRateResponse extends FxRateResponse {
  @ApiProperty({ format: 'date', description: 'The day asked for' }) requestedDate: string;
  @ApiProperty({ format: 'date', description: 'The day the rate was published: the last one on or before the day asked, at most 7 days earlier' })
  rateDate: string;
  @ApiProperty({ example: 2, description: 'Days from rateDate to requestedDate' }) ageDays: number;
}

export class SyncFxRatesResponse {
  @ApiProperty({ description: 'Rates the provider answered for the range' }) fetchedCount: number;
  @ApiProperty({ description: 'Rates not stored before (same date, currency and source); a repeated sync stores 0 (D80a)' }) storedCount: number;
}
