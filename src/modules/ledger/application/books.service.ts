import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../platform/clock/clock';
import { translateUniqueViolation } from '../../../platform/database/pg-errors';
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
}
