import { Injectable } from '@nestjs/common';
import { EntryLifecycleEvent, EntryLifecycleListener, LedgerLifecycleListener } from '../../ledger';
import { RecordHostKind, RecordHostListener, RecordHostListenerProvider } from '../../record-hosts';
import { TodosService } from '../application/todos.service';

/** A deleted invoice or bank movement: its To-dos stand alone, in the deleting transaction (D71). */
@Injectable()
@RecordHostListenerProvider()
export class TodosHostListener implements RecordHostListener {
  constructor(private readonly todos: TodosService) {}

  async recordsRemoved(entityId: string, kind: RecordHostKind, ids: string[]): Promise<void> {
    await this.todos.unlink(entityId, kind, ids);
  }
}

/** An unbooked entry or a cancelled scheduled entry: its To-dos stand alone, in the ledger's transaction (spec, D71). */
@Injectable()
@LedgerLifecycleListener()
export class TodosLedgerListener implements EntryLifecycleListener {
  constructor(private readonly todos: TodosService) {}

  async onEntryLifecycle(event: EntryLifecycleEvent): Promise<void> {
    if (event.reason === 'unbooked' || event.reason === 'cancelled') await this.todos.unlink(event.entityId, 'ledger_entry', event.entryIds);
  }
}
