// The To-dos module's API.
export { TodosModule } from './todos.module';
export { TodosService } from './application/todos.service';
import { TodoRecord } from './infrastructure/persistence/todo.record';
export const TODO_RECORDS = [TodoRecord];
