/** The agents module's API for the application: its Nest module and its records (no other module uses it). */
export { AgentsModule } from './agents.module';
export { AGENT_RECORDS } from './infrastructure/persistence/agent.records';
