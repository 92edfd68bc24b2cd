import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../../libs/shared-kernel/src';
import { ExchangeRates } from '../application/banking-ports';

/** No FX module in this build: a movement in a foreign currency cannot be booked yet (404, nothing written). */
@Injectable()
export class NoExchangeRates extends ExchangeRates {
  rateOn(_entityId: string, currency: string, date: string): Promise<string> {
    return Promise.reject(new DomainError('FX_RATE_NOT_FOUND_ERROR', `No exchange rate for ${currency} on ${date}`, { currency, date }));
  }
}
