import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { HostedRecord, LinkSummary, RECORD_HOST_KINDS, RecordHost, RecordHostKind, RecordHostListener } from '../domain/record-host';

/** Marks a provider as the RecordHost of its kind: `@RecordHostProvider() class InvoiceHost implements RecordHost`. */
export const RecordHostProvider = DiscoveryService.createDecorator<void>();
/** Marks a provider as a RecordHostListener (attachments, comments, To-dos). */
export const RecordHostListenerProvider = DiscoveryService.createDecorator<void>();

/**
 * The hosts and listeners of the application, found once through Nest's DI (the providers marked
 * with the decorators above), then fixed: nothing registers at run time.
 */
@Injectable()
export class RecordHosts implements OnModuleInit {
  private hosts: ReadonlyMap<RecordHostKind, RecordHost> = new Map();
  private listeners: readonly RecordHostListener[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const hosts = new Map<RecordHostKind, RecordHost>();
    for (const wrapper of this.discovery.getProviders({ metadataKey: RecordHostProvider.KEY })) {
      const host = wrapper.instance as RecordHost;
      if (!RECORD_HOST_KINDS.includes(host.kind)) throw new Error(`Record host ${wrapper.name} names an unknown kind ${String(host.kind)}`);
      if (hosts.has(host.kind)) throw new Error(`Two record hosts of kind ${host.kind}`);
      hosts.set(host.kind, host);
    }
    this.hosts = hosts;
    this.listeners = this.discovery.getProviders({ metadataKey: RecordHostListenerProvider.KEY }).map((wrapper) => wrapper.instance as RecordHostListener);
  }

  /** Whether the record exists (no lock: for reads); false when its kind is not built. */
  async exists(entityId: string, kind: RecordHostKind, id: string): Promise<boolean> {
    return (await this.hosts.get(kind)?.exists(entityId, id)) ?? false;
  }

  /** The record, held for the transaction (RecordHost.hold); null when missing or its kind is not built. */
  async hold(entityId: string, kind: RecordHostKind, id: string): Promise<HostedRecord | null> {
    return (await this.hosts.get(kind)?.hold(entityId, id)) ?? null;
  }

  /** RecordHost.holdQuery of the kind; null when its kind is not built. */
  holdQuery(kind: RecordHostKind): string | null {
    return this.hosts.get(kind)?.holdQuery() ?? null;
  }

  async linkSummaries(entityId: string, kind: RecordHostKind, ids: string[]): Promise<Map<string, LinkSummary>> {
    const host = this.hosts.get(kind);
    return host && ids.length > 0 ? host.linkSummaries(entityId, ids) : new Map();
  }

  /**
   * For host modules: call inside the transaction that deletes records of `kind`, before it
   * commits. Their attachments, comments and To-do links follow (RecordHostListener).
   */
  async recordsRemoved(entityId: string, kind: RecordHostKind, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const listener of this.listeners) await listener.recordsRemoved(entityId, kind, ids);
  }
}
