import { LedgerErrorCode, ledgerError } from './ledger-errors';

export interface Book {
  entityId: string;
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Dimension {
  entityId: string;
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface DimensionValue {
  entityId: string;
  id: string;
  dimensionId: string;
  code: string;
  name: string;
  parentId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const e = (code: LedgerErrorCode, message: string) => (params: Record<string, unknown> = {}) => ledgerError(code, message, params);

export const bookNotFound = e('BOOK_NOT_FOUND_ERROR', 'No Book with this id under the Entity');
export const bookAlreadyExists = e('BOOK_ALREADY_EXISTS_ERROR', 'A Book with this id already exists');
export const bookNameAlreadyExists = e('BOOK_NAME_ALREADY_EXISTS_ERROR', 'A Book with this name exists in the Entity');
export const bookRequired = e('BOOK_REQUIRED_ERROR', 'The Entity keeps Books: name the Book with bookId');

export const dimensionNotFound = e('DIMENSION_NOT_FOUND_ERROR', 'No Dimension with this id in the Entity');
export const dimensionAlreadyExists = e('DIMENSION_ALREADY_EXISTS_ERROR', 'A Dimension with this id already exists');
export const dimensionNameAlreadyExists = e('DIMENSION_NAME_ALREADY_EXISTS_ERROR', 'A Dimension with this name exists in the Entity');
export const dimensionHasValues = e('DIMENSION_HAS_VALUES_ERROR', 'A Dimension with values cannot be deleted');
export const dimensionValueNotFound = e('DIMENSION_VALUE_NOT_FOUND_ERROR', 'No value with this id in the Dimension');
export const dimensionValueAlreadyExists = e('DIMENSION_VALUE_ALREADY_EXISTS_ERROR', 'A Dimension Value with this id already exists');
export const dimensionValueCodeAlreadyExists = e('DIMENSION_VALUE_CODE_ALREADY_EXISTS_ERROR', 'The code is in use in this Dimension');
export const dimensionValueParentNotFound = e('DIMENSION_VALUE_PARENT_NOT_FOUND_ERROR', 'The parent value is not a value of this Dimension');
export const dimensionValueParentCycle = e('DIMENSION_VALUE_PARENT_CYCLE_ERROR', 'The value would become its own descendant');
export const dimensionValueInUse = e('DIMENSION_VALUE_IN_USE_ERROR', 'The value is tagged on a ledger line');
export const dimensionValueHasChildren = e('DIMENSION_VALUE_HAS_CHILDREN_ERROR', 'The value has child values');

/**
 * The Book a book-scoped read reads, by the rules of the spec's "Books": once an Entity keeps
 * Books, `bookId` is required (409 BOOK_REQUIRED_ERROR); it must be a Book of the Entity, and an
 * Entity without Books accepts none (404 BOOK_NOT_FOUND_ERROR, D33a). Null means "common only".
 */
export function resolveBook(books: readonly Pick<Book, 'id'>[], bookId: string | undefined | null): string | null {
  if (books.length === 0) {
    if (bookId) throw bookNotFound({ bookId });
    return null;
  }
  if (!bookId) throw bookRequired();
  if (!books.some((book) => book.id === bookId)) throw bookNotFound({ bookId });
  return bookId;
}

/**
 * The Book of a new entry (spec "Book" rule 2): without `bookId` (absent or null) it is a Common
 * Entry, counted in every Book, whether or not the Entity keeps Books; a named Book must be one
 * of the Entity's (404 BOOK_NOT_FOUND_ERROR, also when it keeps none, D33a). BOOK_REQUIRED_ERROR
 * is for book-scoped reads only.
 */
export function bookOfNewEntry(bookIds: readonly string[], bookId: string | undefined | null): string | null {
  if (bookId === undefined || bookId === null) return null;
  if (!bookIds.includes(bookId)) throw bookNotFound({ bookId });
  return bookId;
}
