// Builds the admin screens and the set-password page (dist/web, issue 24) when they are missing
// or older than their sources. Used by the test global setup, so `npm test` works on a fresh clone.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const sources = ['web', join('libs', 'contracts'), join('libs', 'shared-kernel', 'src', 'chilean-rut.ts'), 'package-lock.json'];
const outputs = [join(root, 'dist', 'web', 'index.html'), join(root, 'dist', 'web', 'set-password.html')];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

function ensureWebBuild() {
  const builtAt = outputs.every((path) => existsSync(path)) ? Math.min(...outputs.map((path) => statSync(path).mtimeMs)) : 0;
  const changedAt = Math.max(...sources.map((source) => newestChange(join(root, source))));
  if (builtAt >= changedAt) return false;
  const build = spawnSync('npm', ['run', '--silent', 'build:web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build:web failed (exit ${build.status})`);
  return true;
}

module.exports = { ensureWebBuild };
if (require.main === module) ensureWebBuild();
