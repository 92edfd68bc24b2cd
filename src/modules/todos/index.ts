// The To-dos module's API.
export { TodosModule } from './todos.module';
export { TodosService } from './application/todos.service';
