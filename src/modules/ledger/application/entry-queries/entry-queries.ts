import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { encodeDateIdCursor } from '../../../../../libs/shared-kernel/src';
import type { RuntimeConfig } from '../../../../platform/config/app-config';
import { AllocationRepository, AllocationRow, EntryRepository, ListedLine } from '../../domain/entry-ports';
import { entryNotFound, LedgerEntry } from '../../domain/ledger-entry';
import { tooManyLines, validationError } from '../../domain/ledger-errors';
import { BooksService } from '../books.service';
import { readDateIdCursor } from '../date-id-cursor';
import { EntryLifecycle, RelatedDocuments } from '../entry-lifecycle';

export interface EntryDetail {
  entry: LedgerEntry;
  allocations: AllocationRow[];
  /** The documents the entry booked, by kind (RelatedDocumentKinds). */
  related: RelatedDocuments;
}

/** `to` before `from` is a client's mistake, not an empty range (as D58 rules for the reports). */
function refuseReversedRange(query: { from?: string; to?: string }): void {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) throw validationError('to', 'must be on or after from');
}

/** The entry and line reads: detail (with the documents it booked), pages of entries, lines. */
@Injectable()
export class EntryQueries {
  constructor(
    private readonly entries: EntryRepository,
    private readonly allocations: AllocationRepository,
    private readonly books: BooksService,
    private readonly lifecycle: EntryLifecycle,
    @Inject(ConfigService) private readonly config: ConfigService<RuntimeConfig, true>,
  ) {}

  async get(entityId: string, entryId: string): Promise<EntryDetail> {
    const entry = await this.entries.find(entityId, entryId);
    if (!entry) throw entryNotFound(entryId);
    const allocations = await this.allocations.allocationsOfLines(entityId, entry.lines.map((l) => l.id));
    return { entry, allocations, related: await this.lifecycle.relatedDocuments(entityId, entryId) };
  }

  async list(
    entityId: string,
    query: { from?: string; to?: string; status?: string; search?: string; accountId?: string; partnerId?: string; bookId?: string; cursor?: string; limit?: number },
  ): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
    refuseReversedRange(query);
    // The cursor is part of the query's shape (400), judged before the Book is looked up.
    const after = query.cursor ? readDateIdCursor(query.cursor) : undefined;
    const limit = query.limit ?? 50;
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const found = await this.entries.list(entityId, { ...query, bookId, after, limit: limit + 1 });
    const page = found.slice(0, limit);
    return { entries: page, nextCursor: found.length > limit ? encodeDateIdCursor({ date: page[page.length - 1].entryDate, id: page[page.length - 1].id }) : null };
  }

  /** D93: the entries list's whole filtered range (no cursor, no limit), streamed to `send` in batches. */
  async streamEntries(
    entityId: string,
    query: { from?: string; to?: string; status?: string; search?: string; accountId?: string; partnerId?: string; bookId?: string },
    signal: AbortSignal,
    send: (batches: AsyncIterable<LedgerEntry[]>) => Promise<void>,
  ): Promise<void> {
    refuseReversedRange(query);
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const { from, to, status, search, accountId, partnerId } = query;
    await this.entries.readEntries(entityId, { from, to, status, search, accountId, partnerId, bookId }, signal, send);
  }

  /**
   * The unpaged lines list (D2a): refused before the first byte when more than the most lines of
   * one answer match; otherwise `send` gets the lines in batches from a database cursor.
   */
  async streamLines(
    entityId: string,
    query: { accountId?: string; partnerId?: string; from?: string; to?: string; status?: string; bookId?: string },
    signal: AbortSignal,
    send: (batches: AsyncIterable<ListedLine[]>) => Promise<void>,
  ): Promise<void> {
    refuseReversedRange(query);
    const bookId = query.bookId !== undefined ? await this.books.resolve(entityId, query.bookId) : undefined;
    const max = this.config.get('linesPerAnswerMax', { infer: true });
    await this.entries.readLines(entityId, { ...query, bookId, limit: max + 1 }, signal, async (count, batches) => {
      if (count > max) throw tooManyLines(max);
      await send(batches);
    });
  }
}
