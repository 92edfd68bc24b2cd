import { Injectable } from '@nestjs/common';
import type { AllocationRow, ListedLine } from '../../domain/entry-ports';
import { EntryLine, LedgerEntry, LedgerEntryState } from '../../domain/ledger-entry';
import { DimensionRepository } from '../../domain/ledger-ports';
import type { AllocationResponse, EntryResponse, LineResponse, ListedLineResponse } from './entries.dto';

type ValueNames = Map<string, { code: string; name: string }>;

/** D34 read shapes; the names of tagged Dimension Values are read in one query per response. */
@Injectable()
export class EntryPresenter {
  constructor(private readonly dimensions: DimensionRepository) {}

  /** Entries, or their snapshots (what the posting API answers). */
  async entries(entityId: string, entries: Array<LedgerEntry | LedgerEntryState>): Promise<EntryResponse[]> {
    const states = entries.map((e) => (e instanceof LedgerEntry ? e.snapshot() : e));
    const names = await this.valueNames(entityId, states.flatMap((e) => e.lines));
    return states.map((entry) => this.entry(entry, names));
  }

  async entry1(entityId: string, entry: LedgerEntry | LedgerEntryState): Promise<EntryResponse> {
    return (await this.entries(entityId, [entry]))[0];
  }

  async lines(entityId: string, lines: ListedLine[]): Promise<ListedLineResponse[]> {
    const names = await this.valueNames(entityId, lines);
    return lines.map((line) => ({
      ...this.line(line, names),
      entryId: line.entryId,
      entryDate: line.entryDate,
      memo: line.memo,
      status: line.status,
      bookId: line.bookId,
    }));
  }

  allocation(a: AllocationRow): AllocationResponse {
    return {
      id: a.id,
      entityId: a.entityId,
      debitLineId: a.debitLineId,
      creditLineId: a.creditLineId,
      accountId: a.accountId,
      amount: a.amount,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }

  private entry(s: LedgerEntryState, names: ValueNames): EntryResponse {
    return {
      id: s.id,
      entityId: s.entityId,
      bookId: s.bookId,
      entryDate: s.entryDate,
      memo: s.memo,
      notes: s.notes,
      status: s.status,
      source: s.source,
      reversalOfEntryId: s.reversalOfEntryId,
      reversedByEntryId: s.reversedByEntryId,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      lines: s.lines.map((line) => this.line(line, names)),
    };
  }

  private line(line: EntryLine, names: ValueNames): LineResponse {
    return {
      id: line.id,
      side: line.side,
      ledgerAccountId: line.ledgerAccountId,
      amount: line.amount,
      description: line.description,
      partnerId: line.partnerId,
      transactionCurrency: line.transactionCurrency,
      transactionAmount: line.transactionAmount,
      exchangeRate: line.exchangeRate,
      dimensionValues: line.dimensionValues.map((v) => ({ id: v.id, dimensionId: v.dimensionId, code: names.get(v.id)?.code ?? '', name: names.get(v.id)?.name ?? '' })),
      openAmount: line.isOpenItem ? line.amount - line.allocatedAmount : null,
    };
  }

  private async valueNames(entityId: string, lines: EntryLine[]): Promise<ValueNames> {
    const ids = [...new Set(lines.flatMap((l) => l.dimensionValues.map((v) => v.id)))];
    return new Map((await this.dimensions.valuesByIds(entityId, ids)).map((v) => [v.id, { code: v.code, name: v.name }]));
  }
}
