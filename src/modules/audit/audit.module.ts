import { Global, Module } from '@nestjs/common';
import { AuditContext } from '../../platform/audit/audit-context';
import { AuditRecorder } from '../../platform/audit/audit-recorder';
import { OfferedAuditRow } from '../../platform/audit/offered-audit-row';
import { SystemWrites } from '../../platform/audit/system-writes';
import { OrganizationsModule } from '../organizations';
import { AuditTrailQueryService } from './application/audit-trail-query.service';
import { AuditTrailController } from './infrastructure/http/audit-trail.controller';
import { TypeOrmAuditRecorder } from './infrastructure/typeorm-audit-recorder';

@Global()
@Module({
  imports: [OrganizationsModule],
  controllers: [AuditTrailController],
  providers: [{ provide: AuditRecorder, useClass: TypeOrmAuditRecorder }, AuditContext, OfferedAuditRow, SystemWrites, AuditTrailQueryService],
  exports: [AuditRecorder, AuditContext, OfferedAuditRow, SystemWrites],
})
export class AuditModule {}
