import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function statFields(pid: number): string[] | null {
  try {
    // The fields after the parenthesized command name; field 14 of stat(5) is index 11 here.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null; // exited
  }
}

/** CPU seconds (user and system) a process has used so far. */
export function processCpuSeconds(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND : 0;
}

/**
 * CPU seconds used by a process and all its descendants, living or exited (exited children that
 * were waited for are counted in their parent's cutime/cstime). A PostgreSQL server's cost is its
 * postmaster's tree: the backends, the WAL writer, the checkpointer.
 */
export function treeCpuSeconds(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (!f) continue;
    const parent = Number(f[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  let ticks = 0;
  const visit = (pid: number) => {
    const f = statFields(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds this process (the load generator) has used so far. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}
