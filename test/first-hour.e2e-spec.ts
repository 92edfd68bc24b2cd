import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitUntil } from './harness/db-checks';
import { spawnService } from './harness/service-process';
import { createTestApp, createTestDatabase, TestApp } from './harness/test-app';

const ROOT = join(__dirname, '..');
const run = promisify(execFile);

/** Issue 33, "a new user's first hour": what a fresh clone's first commands show. Also run on Node 24 by .ci/run. */
describe('a new user\'s first hour (issue 33)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('`npm run cli -- --help` (and with no command) prints the usage and exits 0; an unknown command exits 1 naming it', async () => {
    const cli = (...args: string[]) => run(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src', 'cli.ts'), ...args], { cwd: ROOT, timeout: 60_000 });
    for (const args of [['--help'], []]) {
      const { stdout } = await cli(...args);
      expect(stdout).toMatch(/^Usage: npm run cli -- <command>/);
      expect(stdout).toContain('users:create-staff --email E --password P');
      expect(stdout).toContain('ledger:import FILE --entity ID');
    }
    const one = await cli('ledger:import', '--help');
    expect(one.stdout).toMatch(/^Usage: npm run cli -- ledger:import FILE/);
    const unknown = await cli('users:delete').then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command users:delete');
  }, 120_000);

  it('GET /api (the README\'s first address) answers an index of where things are; /favicon.ico is 204, not 404', async () => {
    for (const path of ['/api', '/api/']) {
      const index = await t.http.get(path);
      expect(index.status).toBe(200);
      expect(index.body).toEqual({ service: 'Multi-entity accounting API', docs: '/api/docs', openApi: '/api/docs-json', health: '/api/health', admin: '/admin' });
    }
    // Only that exact path: an unknown route under /api is still the envelope's 404.
    expect((await t.http.get('/api/nothing-here')).status).toBe(404);
    expect((await t.http.post('/api').send({})).status).toBe(404);
    const icon = await t.http.get('/favicon.ico');
    expect(icon.status).toBe(204);
  });

  it('the start log names the address really bound (0.0.0.0: every interface) and keeps the route map at debug', async () => {
    let out = '';
    const { child, url } = await spawnService(await createTestDatabase(), { HOST: '0.0.0.0', LOG_LEVEL: 'info' }, { stdout: (chunk) => (out += chunk) });
    try {
      const port = new URL(url).port;
      // The line is written before the IPC message is sent; the pipe may deliver it after.
      await waitUntil(() => out.includes('listening on'));
      const lines = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; context?: string });
      const listening = lines.find((line) => line.msg.startsWith('listening on'));
      expect(listening?.msg).toBe(`listening on 0.0.0.0:${port} (every interface): open ${url}/api (docs at ${url}/api/docs, admin at ${url}/admin)`);
      // No route-mapping or module lines at info (30): they are debug (20).
      expect(lines.filter((line) => line.context === 'RouterExplorer' || line.context === 'InstanceLoader' || line.context === 'RoutesResolver')).toEqual([]);
      expect(lines.filter((line) => /Mapped \{/.test(line.msg))).toEqual([]);
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
