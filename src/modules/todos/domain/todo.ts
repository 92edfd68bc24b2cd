import { characterCount, errorCatalog, validationError } from '../../../../libs/shared-kernel/src';
import type { LinkSummary, RecordHostKind } from '../../record-hosts';

/**
 * Every code To-dos answers, with its HTTP status: the one place each is declared. The compiler
 * checks the table (D3: a *_NOT_FOUND_ERROR is 404) and that every error built here names a code
 * of it.
 */
export const TODO_ERROR_STATUS = {
  TODO_ALREADY_EXISTS_ERROR: 409,
  TODO_LINKED_RECORD_NOT_FOUND_ERROR: 404,
  TODO_NOT_FOUND_ERROR: 404,
} as const;

export const todoError = errorCatalog(TODO_ERROR_STATUS);

/** Spec, To-do: 1 to 500 characters after trimming, stored trimmed (D75). */
export const TODO_TEXT_MAX = 500;

/** The To-do field that holds each kind's link. */
export const LINK_FIELDS = { invoice: 'invoiceId', bank_movement: 'bankMovementId', ledger_entry: 'ledgerEntryId' } as const satisfies Record<RecordHostKind, string>;

export interface TodoLink {
  kind: RecordHostKind;
  recordId: string;
}

export interface Todo {
  entityId: string;
  id: string;
  text: string;
  completedAt: Date | null;
  link: TodoLink | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TodoView extends Todo {
  /** The linked record's summary (null when stand-alone). */
  summary: LinkSummary | null;
}

/** Trimmed; 1 to 500 characters (code points) after trimming, else 400 on `text`. */
export function todoText(text: string): string {
  const trimmed = text.trim();
  const length = characterCount(trimmed);
  if (length === 0) throw validationError('text', 'must contain 1 to 500 characters after trimming');
  if (length > TODO_TEXT_MAX) throw validationError('text', `must contain at most ${TODO_TEXT_MAX} characters after trimming`);
  return trimmed;
}

/** The state table: completing keeps an earlier completedAt; reopening clears it. */
export function changeTodo(todo: Todo, change: { text?: string; completed?: boolean }, now: Date): Todo {
  let completedAt = todo.completedAt;
  if (change.completed === true) completedAt = todo.completedAt ?? now;
  if (change.completed === false) completedAt = null;
  return { ...todo, text: change.text !== undefined ? todoText(change.text) : todo.text, completedAt, updatedAt: now };
}

export const todoNotFound = (todoId: string) => todoError('TODO_NOT_FOUND_ERROR', 'No To-do with this id in the Entity', { todoId });
export const todoAlreadyExists = (todoId: string) => todoError('TODO_ALREADY_EXISTS_ERROR', 'A To-do with this id already exists', { todoId });
export const todoLinkedRecordNotFound = (linkKind: RecordHostKind, recordId: string) =>
  todoError('TODO_LINKED_RECORD_NOT_FOUND_ERROR', 'The linked record is missing, of another Entity, or an unbooked or cancelled entry', { linkKind, recordId });

export abstract class TodoRepository {
  /** False when the id is taken in the Entity. */
  abstract insert(todo: Todo): Promise<boolean>;
  abstract lock(entityId: string, id: string): Promise<Todo | null>;
  abstract save(todo: Todo): Promise<void>;
  abstract delete(entityId: string, id: string): Promise<void>;
  /** Oldest first (createdAt, id); optionally those linked to one record. */
  abstract list(entityId: string, link: TodoLink | null): Promise<Todo[]>;
  /** Links to these records become null (the To-dos stand alone); answers how many changed. */
  abstract unlink(entityId: string, kind: RecordHostKind, recordIds: string[], now: Date): Promise<number>;
}
