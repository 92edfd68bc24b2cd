import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
import { ledgerError } from '../domain/ledger-errors';
import { Book, bookAlreadyExists, bookNameAlreadyExists, bookNotFound, resolveBook } from '../domain/books-dimensions';
import { BookRepository } from '../domain/ledger-ports';

@Injectable()
export class BooksService {
  constructor(
    private readonly books: BookRepository,
    private readonly clock: Clock,
  ) {}

  list(entityId: string): Promise<Book[]> {
    return this.books.list(entityId);
  }

  async get(entityId: string, bookId: string): Promise<Book> {
    const book = await this.books.find(entityId, bookId);
    if (!book) throw bookNotFound({ bookId });
    return book;
  }

  /** A Book cannot be renamed or deleted (spec "Book" rule 6). */
  @Transactional()
  async create(entityId: string, input: { id: string; name: string }): Promise<Book> {
    if (await this.books.find(entityId, input.id)) throw bookAlreadyExists({ bookId: input.id });
    const now = this.clock.now();
    const book: Book = { entityId, id: input.id, name: input.name.trim(), createdAt: now, updatedAt: now };
    if ((await translateUniqueViolation(() => this.books.insert(book), () => bookAlreadyExists({ bookId: book.id }))) === 'name_taken') throw bookNameAlreadyExists({ name: book.name });
    return book;
  }

  /**
   * The one piece every book-scoped read applies: the Book named by `bookId`, or null for an
   * Entity without Books (then every entry is a common entry).
   */
  async resolve(entityId: string, bookId: string | undefined | null): Promise<string | null> {
    return resolveBook(await this.books.list(entityId), bookId);
  }

  /**
   * A Book named by its name, for reads over several Entities (consolidation, D91): null for an
   * Entity without Books (its one set of books); an Entity with Books needs `bookName` (409
   * BOOK_REQUIRED_ERROR) and a Book of that name (404 BOOK_NOT_FOUND_ERROR), both naming the
   * Entity in `params.entityId`. The name matches exactly (trimmed), else ignoring case.
   */
  async resolveByName(entityId: string, bookName: string | undefined | null): Promise<string | null> {
    return bookNamed(entityId, await this.books.list(entityId), bookName);
  }

  /**
   * `resolveByName` for several Entities in one read (a consolidated report, D91): each Entity's
   * Book in the order given; the refusal thrown is the first Entity's in that order.
   */
  async resolveEachByName(entityIds: readonly string[], bookName: string | undefined | null): Promise<Array<string | null>> {
    const books = await this.books.listOfEach(entityIds);
    return entityIds.map((entityId) => bookNamed(entityId, books.get(entityId) ?? [], bookName));
  }
}

/** The Book of `books` (one Entity's) named `bookName`, or null when the Entity keeps none (see `resolveByName`). */
function bookNamed(entityId: string, books: readonly Book[], bookName: string | undefined | null): string | null {
  if (books.length === 0) return null;
  if (bookName === undefined || bookName === null || bookName.trim() === '') {
    throw ledgerError('BOOK_REQUIRED_ERROR', 'The Entity keeps Books: name the Book with bookName', { entityId });
  }
  const wanted = bookName.trim().normalize('NFC');
  const book = books.find((b) => b.name.normalize('NFC') === wanted) ?? books.find((b) => b.name.normalize('NFC').toLowerCase() === wanted.toLowerCase());
  if (!book) throw ledgerError('BOOK_NOT_FOUND_ERROR', 'The Entity has no Book with this name', { entityId, bookName });
  return book.id;
}
