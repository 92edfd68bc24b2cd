import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RecordHosts } from './application/record-hosts';

/**
 * The hosts of attachments, comments and To-dos. Not global: a module that injects RecordHosts
 * (attachments, comments, To-dos; invoices and banking, which call RecordHosts.recordsRemoved when
 * they delete records) imports this module; a host module marks its RecordHost provider with
 * @RecordHostProvider() and needs no import for that.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [RecordHosts],
  exports: [RecordHosts],
})
export class RecordHostsModule {}
