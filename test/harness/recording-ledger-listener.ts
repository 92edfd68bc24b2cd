import { Injectable, Module } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import {
  EntryDocumentSource,
  EntryLifecycleEvent,
  EntryLifecycleListener,
  LedgerDocumentSource,
  LedgerLifecycleListener,
  RelatedDocuments,
  SeveredDocuments,
} from '../../src/modules/ledger';

export interface RecordedEvent {
  event: EntryLifecycleEvent;
  /** Whether the ledger told it inside a transaction. */
  inTransaction: boolean;
  /** The backend pid of the connection it was told on (the transaction's). */
  backendPid: number | null;
}

/**
 * A module of another domain as the ledger sees it, for tests: it records every lifecycle event
 * (and whether it came inside a transaction), answers documents it was told to answer, and throws
 * when told to (a listener that fails must roll the ledger's change back).
 */
@Injectable()
@LedgerLifecycleListener()
@LedgerDocumentSource()
export class RecordingLedgerListener implements EntryLifecycleListener, EntryDocumentSource {
  readonly events: RecordedEvent[] = [];
  /** Severed documents answered per reason. */
  severed: (event: EntryLifecycleEvent) => SeveredDocuments = () => ({});
  related: (entryId: string) => RelatedDocuments = () => ({});
  linkedLines = new Set<string>();
  /** Throws on this reason (after recording it). */
  failOn: EntryLifecycleEvent['reason'] | null = null;
  /** A row this listener writes in the ledger's transaction on each event (it must commit or roll back with it). */
  writeMarker = false;

  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<SeveredDocuments> {
    const inTransaction = this.txHost.isTransactionActive();
    const [{ pid }] = inTransaction ? await this.txHost.tx.query('SELECT pg_backend_pid() AS pid') : [{ pid: null }];
    this.events.push({ event, inTransaction, backendPid: pid });
    if (this.writeMarker) {
      await this.txHost.tx.query(`CREATE TABLE IF NOT EXISTS test_listener_marks (reason text NOT NULL, entry_ids uuid[] NOT NULL)`);
      await this.txHost.tx.query(`INSERT INTO test_listener_marks (reason, entry_ids) VALUES ($1, $2)`, [event.reason, event.entryIds]);
    }
    if (this.failOn === event.reason) throw new Error(`listener refuses ${event.reason}`);
    return this.severed(event);
  }

  async relatedDocuments(_entityId: string, entryId: string): Promise<RelatedDocuments> {
    return this.related(entryId);
  }

  async documentLinkedLines(_entityId: string, lineIds: string[]): Promise<Set<string>> {
    return new Set(lineIds.filter((id) => this.linkedLines.has(id)));
  }

  reset(): void {
    this.events.length = 0;
    this.severed = () => ({});
    this.related = () => ({});
    this.linkedLines.clear();
    this.failOn = null;
    this.writeMarker = false;
  }
}

@Module({ providers: [RecordingLedgerListener] })
export class RecordingLedgerListenerModule {}
