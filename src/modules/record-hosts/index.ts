// The record-hosts module's API: the port host modules implement and the registry that finds them.
export * from './domain/record-host';
export { RecordHostListenerProvider, RecordHostProvider, RecordHosts } from './application/record-hosts';
export { RecordHostsModule } from './record-hosts.module';
