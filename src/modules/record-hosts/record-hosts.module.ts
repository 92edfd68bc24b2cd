import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RecordHosts } from './application/record-hosts';

/**
 * The host registry of attachments, comments and To-dos. Global: each host module (ledger,
 * invoices, banking) marks its RecordHost provider with @RecordHostProvider() and calls
 * RecordHosts.recordsRemoved when it deletes records.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [RecordHosts],
  exports: [RecordHosts],
})
export class RecordHostsModule {}
