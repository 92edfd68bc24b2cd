import type { MixedList } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';

/**
 * Every TypeORM entity of the service. The migrations are the schema's source of truth; a test
 * fails when generating a migration from these entities would not be empty.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: MixedList<Function> = [];

export { MIGRATIONS };
