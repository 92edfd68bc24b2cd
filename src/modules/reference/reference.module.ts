import { Module } from '@nestjs/common';
import { ReferenceDataService } from './application/reference-data.service';
import { ReferenceController } from './infrastructure/http/reference.controller';

@Module({
  controllers: [ReferenceController],
  providers: [ReferenceDataService],
  exports: [ReferenceDataService],
})
export class ReferenceModule {}
