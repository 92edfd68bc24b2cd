import { rmSync } from 'node:fs';
import { clearTestServers } from './test-servers';

export default async function globalTeardown(): Promise<void> {
  const servers = (globalThis as Record<string, unknown>).__testServers as
    | { stopPostgres(): Promise<void>; stopS3(): Promise<void>; root: string }
    | undefined;
  if (!servers) return;
  await servers.stopS3().catch(() => undefined);
  await servers.stopPostgres().catch(() => undefined);
  rmSync(servers.root, { recursive: true, force: true });
  clearTestServers();
}
