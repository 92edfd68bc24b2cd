import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '../../../platform/clock/clock';
import { LinkSummary, RecordHostKind, RecordHosts } from '../../record-hosts';
import { changeTodo, Todo, todoAlreadyExists, TodoLink, todoLinkedRecordNotFound, todoNotFound, TodoRepository, todoText, TodoView } from '../domain/todo';

/** Spec, To-dos (D17, D71, D75): staff of the Entity's Organization only (the route guard). */
@Injectable()
export class TodosService {
  constructor(
    private readonly todos: TodoRepository,
    private readonly hosts: RecordHosts,
    private readonly clock: Clock,
  ) {}

  async list(entityId: string, link: TodoLink | null): Promise<TodoView[]> {
    return this.withSummaries(entityId, await this.todos.list(entityId, link));
  }

  /** Refusals in order: the id taken (409), the linked record (404), as the spec's table lists them. */
  @Transactional()
  async create(entityId: string, input: { id: string; text: string; link: TodoLink | null }): Promise<TodoView> {
    const text = todoText(input.text);
    if (await this.todos.lock(entityId, input.id)) throw todoAlreadyExists(input.id);
    if (input.link) {
      const record = await this.hosts.hold(entityId, input.link.kind, input.link.recordId);
      if (!record?.linkable) throw todoLinkedRecordNotFound(input.link.kind, input.link.recordId);
    }
    const now = this.clock.now();
    const todo: Todo = { entityId, id: input.id, text, completedAt: null, link: input.link, createdAt: now, updatedAt: now };
    if (!(await this.todos.insert(todo))) throw todoAlreadyExists(input.id);
    return (await this.withSummaries(entityId, [todo]))[0];
  }

  @Transactional()
  async update(entityId: string, todoId: string, change: { text?: string; completed?: boolean }): Promise<TodoView> {
    const todo = await this.todos.lock(entityId, todoId);
    if (!todo) throw todoNotFound(todoId);
    const next = changeTodo(todo, change, this.clock.now());
    await this.todos.save(next);
    return (await this.withSummaries(entityId, [next]))[0];
  }

  @Transactional()
  async delete(entityId: string, todoId: string): Promise<TodoView> {
    const todo = await this.todos.lock(entityId, todoId);
    if (!todo) throw todoNotFound(todoId);
    const [view] = await this.withSummaries(entityId, [todo]);
    await this.todos.delete(entityId, todoId);
    return view;
  }

  /** Links of these records are cleared (D71): the records were deleted, unbooked or cancelled. */
  @Transactional()
  unlink(entityId: string, kind: RecordHostKind, recordIds: string[]): Promise<number> {
    return this.todos.unlink(entityId, kind, recordIds, this.clock.now());
  }

  /** One query per linked kind, whatever the number of To-dos. */
  private async withSummaries(entityId: string, todos: Todo[]): Promise<TodoView[]> {
    const byKind = new Map<RecordHostKind, Set<string>>();
    for (const todo of todos) if (todo.link) byKind.set(todo.link.kind, (byKind.get(todo.link.kind) ?? new Set()).add(todo.link.recordId));
    const summaries = new Map<string, LinkSummary>();
    for (const [kind, ids] of byKind) {
      for (const [id, summary] of await this.hosts.linkSummaries(entityId, kind, [...ids])) summaries.set(`${kind}:${id}`, summary);
    }
    return todos.map((todo) => ({ ...todo, summary: todo.link ? (summaries.get(`${todo.link.kind}:${todo.link.recordId}`) ?? null) : null }));
  }
}
