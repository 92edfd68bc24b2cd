// The migrations in the order they run. Written by `npm run migration:generate`.
import { Initial1795334684983 as M0 } from './1795334684983-Initial';
import { IdentitySessions1795334684984 as M1 } from './1795334684984-IdentitySessions';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [M0, M1];
