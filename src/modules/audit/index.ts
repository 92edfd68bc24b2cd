/** The audit trail's API for the composition root (the recorder itself is the platform's AuditRecorder port). */
export { AuditModule } from './audit.module';
export { AUDIT_RECORDS } from './infrastructure/audit-trail.record';
