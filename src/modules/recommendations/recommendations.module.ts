import { Module } from '@nestjs/common';
import { BookingHistory } from './application/recommendation-ports';
import { RecommendationsService } from './application/recommendations.service';
import { SqlBookingHistory } from './infrastructure/booking-history.sql';
import { RecommendationsController } from './infrastructure/http/recommendations.controller';

/** D73: booking recommendations for bank movements and invoices. */
@Module({
  controllers: [RecommendationsController],
  providers: [RecommendationsService, { provide: BookingHistory, useClass: SqlBookingHistory }],
  exports: [RecommendationsService],
})
export class RecommendationsModule {}
