// The agents module's API for the application: its Nest module (no other module uses it).
export { AgentsModule } from './agents.module';
