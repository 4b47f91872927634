/**
 * The resident memory and the CPU time of a started script, read from /proc (Linux only): the sum over the processes
 * in its process group (tsx and the node process it runs the script in), memory once or sampled every 20 ms while a
 * load runs. Reads only; never signals the processes.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface RssFigures {
  /** kB, just before the load started, right after it ended, and the most seen meanwhile. */
  readonly before: number;
  readonly after: number;
  readonly peak: number;
}

/** The ids of the processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => processGroupOf(pid) === pgid);
}

function processGroupOf(pid: number): number | undefined {
  const group = statFields(pid)?.[2];
  return group === undefined ? undefined : Number(group);
}

/** `/proc/PID/stat` from its third field (state) on: comm may hold spaces and parentheses, so after the last `)`. */
function statFields(pid: number): string[] | undefined {
  const stat = readOrNothing(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ is 100 on every architecture node runs on). */
const microsPerTick = 10_000;

/** The CPU time (user and system) `pids` have used since they started, in µs; a process that has exited counts nothing. */
export function cpuMicros(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => {
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after comm
    const fields = statFields(pid);
    return sum + (fields ? (Number(fields[11]) + Number(fields[12])) * microsPerTick : 0);
  }, 0);
}

/** The sum of VmRSS of `pids`, in kB; a process that has exited counts nothing. */
export function rssKb(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => {
    const status = readOrNothing(`/proc/${pid}/status`);
    return sum + Number(status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
  }, 0);
}

/** A process can exit between listing /proc and reading its files. */
function readOrNothing(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs `load` while the RSS of the group `pgid` is sampled every 20 ms. */
export async function whileSampling<T>(pgid: number, load: () => Promise<T>): Promise<{ result: T; rss: RssFigures }> {
  const pids = groupMembers(pgid);
  const before = rssKb(pids);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pids));
  }, 20);
  try {
    const result = await load();
    const after = rssKb(pids);
    return { result, rss: { before, after, peak: Math.max(peak, after) } };
  } finally {
    clearInterval(timer);
  }
}
