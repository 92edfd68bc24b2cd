#!/usr/bin/env node
// `npm start`: builds (the service and the admin screens) when dist/ is missing or older than the sources, then runs the service.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'src', 'main.js');
const webEntry = join(root, 'dist', 'web', 'index.html');
const sources = ['src', 'libs', 'migrations', 'web', 'ormconfig.ts', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

// Both the service and the admin screens (dist/web, issue 24) must be there and newer than the sources.
const builtAt = existsSync(entry) && existsSync(webEntry) ? Math.min(statSync(entry).mtimeMs, statSync(webEntry).mtimeMs) : 0;
const changedAt = Math.max(...sources.map((source) => newestChange(join(root, source))));
if (builtAt < changedAt) {
  process.stdout.write('Building the service (dist/ is missing or older than the sources)...\n');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
require(entry);
