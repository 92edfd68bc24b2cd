import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

interface SystemUser {
  uid: number;
  groups: number[];
}

/** The `postgres` system user, or null when it does not exist yet (the package then creates it). */
function postgresUser(): SystemUser | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const groups = execFileSync('id', ['-G', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { uid, groups };
  } catch {
    return null;
  }
}

/** The permission bits that apply to `user` on a file of this owner, group and mode (0-7). */
function bitsFor(user: SystemUser | null, stat: { uid: number; gid: number; mode: number }): number {
  if (user && stat.uid === user.uid) return (stat.mode >> 6) & 7;
  if (user && user.groups.includes(stat.gid)) return (stat.mode >> 3) & 7;
  return stat.mode & 7;
}

/** Every folder above `path`, from the root down. */
function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) return folders;
  }
}

/**
 * As root, the embedded PostgreSQL runs as the `postgres` system user. Run from a private folder
 * (mode 0700, like `/root` or what `mktemp -d` makes) that user could reach neither its data
 * directory nor the binaries, and initdb failed. This gives that user what it needs and nothing
 * more: search permission (x, which does not list a folder's names) on the folders above the data
 * directory and the binaries, and read permission on the binaries' own files. Each change is
 * logged. The data directory itself is created here and handed to that user by the package.
 */
export function letPostgresUserReach(paths: { dataDirectory: string; binaries: string }, log: (message: string) => void): void {
  const user = postgresUser();
  const dataDirectory = resolve(paths.dataDirectory);
  mkdirSync(dirname(dataDirectory), { recursive: true });
  const changed: string[] = [];
  const grant = (path: string, mode: number, bits: number) => {
    chmodSync(path, (mode & 0o7777) | bits);
    changed.push(path);
  };

  const folders = new Set([...foldersAbove(dataDirectory), ...foldersAbove(resolve(paths.binaries))]);
  for (const folder of folders) {
    const stat = statSync(folder);
    if ((bitsFor(user, stat) & 1) === 0) grant(folder, stat.mode, 0o001);
  }

  // The binaries' own tree (npm may have unpacked it under a private umask).
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const bits = bitsFor(user, stat);
    if (stat.isDirectory()) {
      if ((bits & 5) !== 5) grant(path, stat.mode, 0o005);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stat.isFile()) {
      const needed = (stat.mode & 0o100) !== 0 ? 5 : 4;
      if ((bits & needed) !== needed) grant(path, stat.mode, needed);
    }
  };
  walk(resolve(paths.binaries));

  if (changed.length > 0) {
    log(
      `running as root: the embedded PostgreSQL runs as the postgres system user, so others may now enter (not list) ${changed.length} folder(s) and read its binaries: ${changed.slice(0, 10).join(', ')}${changed.length > 10 ? ', ...' : ''}`,
    );
  }
}
