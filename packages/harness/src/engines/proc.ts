import { readdir, readFile } from 'node:fs/promises';

/** The two /proc reads the memory row needs; tests pass a fake tree instead of the real one. */
export interface ProcReader {
  /** A file's text, or undefined when it does not exist (the process is gone). */
  read(path: string): Promise<string | undefined>;
  /** A directory's entries, or undefined when it does not exist. */
  list(path: string): Promise<string[] | undefined>;
}

const missing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  // ESRCH: a task that exited between the directory listing and the read.
  if (code === 'ENOENT' || code === 'ESRCH') return undefined;
  throw error;
};

export const procFs: ProcReader = {
  read: (path) => readFile(path, 'utf8').catch(missing),
  list: (path) => readdir(path).catch(missing),
};

/** The parent pid from /proc/<pid>/stat; the name in parentheses may itself hold spaces and ')'. */
export function parseStatPpid(text: string): number | undefined {
  const after = text
    .slice(text.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(after[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

const pids = (entries: string[] | undefined) => (entries ?? []).filter((e) => /^\d+$/.test(e)).map(Number);

/**
 * Every descendant of `root` (children, their children, ...). Reads each thread's
 * /proc/<pid>/task/<tid>/children (a child is listed under the thread that forked it); on a
 * kernel built without those files, falls back to the ppid of every /proc/<n>/stat.
 */
export async function descendants(root: number, proc: ProcReader): Promise<number[]> {
  let byParent: Map<number, number[]> | undefined;
  const childrenOf = async (pid: number): Promise<number[]> => {
    if (!byParent) {
      const lists = await Promise.all(
        pids(await proc.list(`/proc/${pid}/task`)).map((tid) =>
          proc.read(`/proc/${pid}/task/${tid}/children`),
        ),
      );
      const found = lists.filter((l): l is string => l !== undefined);
      if (found.length > 0) return found.flatMap((l) => pids(l.trim().split(/\s+/)));
      if (lists.length === 0) return []; // the process itself is gone
      byParent = await parentMap(proc);
    }
    return byParent.get(pid) ?? [];
  };
  const out: number[] = [];
  const queue = [root];
  const seen = new Set(queue);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of await childrenOf(pid)) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

async function parentMap(proc: ProcReader): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  for (const pid of pids(await proc.list('/proc'))) {
    const stat = await proc.read(`/proc/${pid}/stat`);
    const ppid = stat === undefined ? undefined : parseStatPpid(stat);
    if (ppid === undefined) continue;
    map.set(ppid, [...(map.get(ppid) ?? []), pid]);
  }
  return map;
}

/**
 * On-CPU nanoseconds of every live thread of `root` and its descendants, from each thread's
 * /proc/<pid>/task/<tid>/schedstat (first field: time on a CPU, ns; /proc/<pid>/stat's
 * utime/stime only count 10 ms ticks). A thread that exits between two readings takes its time
 * with it; the servers measured here keep their thread pools, so a window loses nothing.
 */
export async function treeCpuNs(root: number, proc: ProcReader = procFs): Promise<number | undefined> {
  const tree = [root, ...(await descendants(root, proc))];
  let total = 0;
  let readable = false;
  for (const pid of tree) {
    const tids = pids(await proc.list(`/proc/${pid}/task`));
    const stats = await Promise.all(tids.map((tid) => proc.read(`/proc/${pid}/task/${tid}/schedstat`)));
    for (const text of stats) {
      const ns = text === undefined ? Number.NaN : Number(text.split(' ')[0]);
      if (!Number.isFinite(ns)) continue;
      total += ns;
      readable = true;
    }
  }
  return readable ? total : undefined;
}

/**
 * Send `signal` to each process: SIGSTOP freezes every thread of it, SIGCONT thaws it. A process
 * gone meanwhile is skipped.
 */
export function signalAll(pids: readonly number[], signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Exited between the listing and the signal: nothing left to freeze or thaw.
    }
  }
}
