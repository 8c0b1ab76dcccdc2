// What a test of the stack's lifecycle finds still running: processes under a pid or in a process
// group, read from /proc (Linux), so that a stack left behind by a failed start or a signal shows.
import { readdirSync, readFileSync } from 'node:fs';

/** Every process under `pid` right now, from /proc. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended while we looked.
    }
  }
  const under = (candidate: number) => {
    for (let current = parents.get(candidate), hops = 0; current && hops < 12; current = parents.get(current), hops++) {
      if (current === pid) return true;
    }
    return false;
  };
  return [...parents.keys()].filter(under);
}

/**
 * Processes of the process group `pgid` still running. A runner started as a group of its own
 * (spawn's `detached`) has everything it starts join it: this finds a process whose parent has
 * gone too.
 */
export function runningInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') found.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

/** Whether a process is still there (a zombie left for its new parent to reap counts as gone). */
export function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
