import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Country, Currency } from '../../../../../libs/contracts/src';
import { Authenticated } from '../../../../platform/auth/decorators';
import { ReferenceDataService } from '../../application/reference-data.service';

class CountryResponse implements Country {
  @ApiProperty({ example: 'CL', description: 'ISO 3166-1 alpha-2 code' })
  code: string;
  @ApiProperty({ example: 'Chile' })
  name: string;
}

class CurrencyResponse implements Currency {
  @ApiProperty({ example: 'CLP', description: 'ISO 4217 code' })
  code: string;
  @ApiProperty({ example: 'Chilean Peso' })
  name: string;
  @ApiProperty({ example: 0, description: 'ISO 4217 minor-unit exponent (CLP 0, USD 2, CLF 4)' })
  minorUnits: number;
}

@ApiTags('reference')
@Authenticated()
@Controller()
export class ReferenceController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Get('countries')
  @ApiOkResponse({ type: CountryResponse, isArray: true, description: 'Every ISO 3166-1 country, by code' })
  countries(): readonly Country[] {
    return this.reference.listCountries();
  }

  @Get('currencies')
  @ApiOkResponse({ type: CurrencyResponse, isArray: true, description: 'Every ISO 4217 currency, by code' })
  currencies(): readonly Currency[] {
    return this.reference.listCurrencies();
  }
}
