import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthConnection } from './health-connection';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthConnection],
})
export class HealthModule {}
