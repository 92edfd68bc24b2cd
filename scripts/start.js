#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than the sources, then runs the service.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'src', 'main.js');
const sources = ['src', 'libs', 'migrations', 'ormconfig.ts', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newestChange(join(root, source))));
if (builtAt < changedAt) {
  process.stdout.write('Building the service (dist/ is missing or older than the sources)...\n');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
require(entry);
