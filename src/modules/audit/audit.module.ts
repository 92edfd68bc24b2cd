import { Global, Module } from '@nestjs/common';
import { AuditContext } from '../../platform/audit/audit-context';
import { AuditRecorder } from '../../platform/audit/audit-recorder';
import { SystemWrites } from '../../platform/audit/system-writes';
import { OrganizationsModule } from '../organizations';
import { AuditTrailQueryService } from './application/audit-trail-query.service';
import { AuditTrailController } from './infrastructure/http/audit-trail.controller';
import { TypeOrmAuditRecorder } from './infrastructure/typeorm-audit-recorder';

@Global()
@Module({
  imports: [OrganizationsModule],
  controllers: [AuditTrailController],
  providers: [{ provide: AuditRecorder, useClass: TypeOrmAuditRecorder }, AuditContext, SystemWrites, AuditTrailQueryService],
  exports: [AuditRecorder, AuditContext, SystemWrites],
})
export class AuditModule {}
