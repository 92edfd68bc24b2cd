import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { validationError } from '../../../../../libs/shared-kernel/src';
import { Audit } from '../../../../platform/audit/audit.decorator';
import { Authenticated, TodoAccess } from '../../../../platform/auth/decorators';
import { NoBody } from '../../../../platform/http/validation';
import { RECORD_HOST_KINDS } from '../../../record-hosts';
import { TodosService } from '../../application/todos.service';
import { LINK_FIELDS, TodoLink, TodoView } from '../../domain/todo';
import { CreateTodoBody, TodoListQuery, TodoResponse, UpdateTodoBody } from './todos.dto';

function present(todo: TodoView): TodoResponse {
  const linked = (kind: string) => (todo.link?.kind === kind ? todo.link.recordId : null);
  return {
    id: todo.id,
    entityId: todo.entityId,
    text: todo.text,
    completedAt: todo.completedAt?.toISOString() ?? null,
    invoiceId: linked('invoice'),
    bankMovementId: linked('bank_movement'),
    ledgerEntryId: linked('ledger_entry'),
    link: todo.summary,
    createdAt: todo.createdAt.toISOString(),
    updatedAt: todo.updatedAt.toISOString(),
  };
}

/** At most one of the three link fields (null counts as absent); two or more: 400 naming them. */
function linkOf(source: Partial<Record<(typeof LINK_FIELDS)[keyof typeof LINK_FIELDS], string | null>>, where: 'body' | 'query'): TodoLink | null {
  const named = RECORD_HOST_KINDS.filter((kind) => source[LINK_FIELDS[kind]] !== undefined && source[LINK_FIELDS[kind]] !== null);
  if (named.length > 1) throw validationError(where, `may name at most one of invoiceId, bankMovementId, ledgerEntryId (named: ${named.map((k) => LINK_FIELDS[k]).join(', ')})`);
  return named.length === 1 ? { kind: named[0], recordId: source[LINK_FIELDS[named[0]]]! } : null;
}

const ERRORS_404 = 'TODO_NOT_FOUND_ERROR (`params { todoId }`)';

@ApiTags('todos')
@Authenticated()
@TodoAccess()
@Controller('entities/:entityId/todos')
export class TodosController {
  constructor(private readonly todos: TodosService) {}

  @Get()
  @ApiOkResponse({ type: TodoResponse, isArray: true, description: 'Every To-do, open and completed, oldest first' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: more than one filter' })
  async list(@Param('entityId') entityId: string, @Query() query: TodoListQuery): Promise<TodoResponse[]> {
    return (await this.todos.list(entityId, linkOf(query, 'query'))).map(present);
  }

  @Post()
  @Audit('todo.create', 'todo')
  @ApiCreatedResponse({ type: TodoResponse, description: 'The new To-do with its link' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: text, ids, or more than one link' })
  @ApiNotFoundResponse({ description: 'TODO_LINKED_RECORD_NOT_FOUND_ERROR (`params { linkKind, recordId }`)' })
  @ApiConflictResponse({ description: 'TODO_ALREADY_EXISTS_ERROR (`params { todoId }`)' })
  async create(@Param('entityId') entityId: string, @Body() body: CreateTodoBody): Promise<TodoResponse> {
    return present(await this.todos.create(entityId, { id: body.id, text: body.text, link: linkOf(body, 'body') }));
  }

  @Patch(':todoId')
  @Audit('todo.update', 'todo')
  @ApiOkResponse({ type: TodoResponse, description: 'The To-do' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: no field, text, or a field the route never changes (D61a)' })
  @ApiNotFoundResponse({ description: ERRORS_404 })
  async update(@Param('entityId') entityId: string, @Param('todoId') todoId: string, @Body() body: UpdateTodoBody): Promise<TodoResponse> {
    if (body.text === undefined && body.completed === undefined) throw validationError('body', 'must name text or completed');
    return present(await this.todos.update(entityId, todoId, body));
  }

  @Delete(':todoId')
  @Audit('todo.delete', 'todo')
  @ApiOkResponse({ type: TodoResponse, description: 'The deleted To-do' })
  @ApiNotFoundResponse({ description: ERRORS_404 })
  async delete(@Param('entityId') entityId: string, @Param('todoId') todoId: string, @NoBody() _body: unknown): Promise<TodoResponse> {
    return present(await this.todos.delete(entityId, todoId));
  }
}
