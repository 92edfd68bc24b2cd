import { Module } from '@nestjs/common';
import { RecordHostsModule } from '../record-hosts';
import { TodosService } from './application/todos.service';
import { TodoRepository } from './domain/todo';
import { TodosController } from './infrastructure/http/todos.controller';
import { SqlTodoRepository } from './infrastructure/persistence/todo.repository';
import { TodosHostListener, TodosLedgerListener } from './infrastructure/todo-link-listeners';

/** To-dos of an Entity, stand-alone or linked to one record (spec, To-dos; D17, D71, D75). */
@Module({
  imports: [RecordHostsModule],
  controllers: [TodosController],
  providers: [{ provide: TodoRepository, useClass: SqlTodoRepository }, TodosService, TodosHostListener, TodosLedgerListener],
  exports: [TodosService],
})
export class TodosModule {}
