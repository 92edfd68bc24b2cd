import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discoverablePort } from '../../../platform/discovery/discoverable-port';
import { HostedRecord, LinkSummary, RECORD_HOST_KINDS, RecordHost, RecordHostKind, RecordHostListener } from '../domain/record-host';

const HOSTS = discoverablePort<RecordHost>();
const LISTENERS = discoverablePort<RecordHostListener>();
/** Marks a provider as the RecordHost of its kind: `@RecordHostProvider() class InvoiceHost implements RecordHost`. */
export const RecordHostProvider = HOSTS.Implementation;
/** Marks a provider as a RecordHostListener (attachments, comments, To-dos). */
export const RecordHostListenerProvider = LISTENERS.Implementation;

/**
 * The hosts and listeners of the application, found through Nest's DiscoveryService on first use
 * (the providers marked with the decorators above), then fixed: nothing registers at run time.
 */
@Injectable()
export class RecordHosts {
  private found?: { hosts: ReadonlyMap<RecordHostKind, RecordHost>; listeners: readonly RecordHostListener[] };

  constructor(private readonly discovery: DiscoveryService) {}

  private get hosts(): ReadonlyMap<RecordHostKind, RecordHost> {
    return this.discovered().hosts;
  }

  private get listeners(): readonly RecordHostListener[] {
    return this.discovered().listeners;
  }

  private discovered() {
    if (!this.found) {
      const hosts = new Map<RecordHostKind, RecordHost>();
      for (const host of HOSTS.implementations(this.discovery)) {
        if (!RECORD_HOST_KINDS.includes(host.kind)) throw new Error(`Record host ${host.constructor.name} names an unknown kind ${String(host.kind)}`);
        if (hosts.has(host.kind)) throw new Error(`Two record hosts of kind ${host.kind}`);
        hosts.set(host.kind, host);
      }
      this.found = { hosts, listeners: LISTENERS.implementations(this.discovery) };
    }
    return this.found;
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
