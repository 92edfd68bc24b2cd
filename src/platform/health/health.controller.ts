import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptions, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '../auth/decorators';
import { ObjectStore } from '../object-store/object-store';
import { HealthConnection } from './health-connection';

const INDICATORS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } }, additionalProperties: true },
  example: { database: { status: 'up' }, objectStore: { status: 'up' } },
};

class HealthResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ ...INDICATORS, description: 'Each dependency that answers' }) info: Record<string, { status: string }>;
  @ApiProperty({ ...INDICATORS, description: 'Each dependency that does not (empty on 200)' }) error: Record<string, { status: string }>;
  @ApiProperty({ ...INDICATORS, description: 'Every dependency' }) details: Record<string, { status: string }>;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: HealthConnection,
    private readonly indicators: HealthIndicatorService,
    private readonly objectStore: ObjectStore,
  ) {}

  @Get()
  @Public()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness of the service: database and object store' })
  @ApiOkResponse({ type: HealthResponse, description: 'Every dependency answers: `{ status: "ok", info, error, details }`' })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down: error envelope SERVICE_UNAVAILABLE_ERROR, details in params' })
  check() {
    return this.health.check([
      () => this.probe('database', () => this.database.ping(3000)),
      () => this.probe('objectStore', () => this.objectStore.checkReachable()),
    ]);
  }

  private async probe(name: string, reach: () => Promise<unknown>) {
    const indicator = this.indicators.check(name);
    try {
      await reach();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.name : 'unreachable' });
    }
  }
}
