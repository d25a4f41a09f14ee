import { nodeStatsMemory } from '../engines/nodeStats.js';
import { descendants, type ProcReader, procFs } from '../engines/proc.js';
import type { RunningEngine } from '../engines/types.js';
import type { Side } from '../load/side.js';
import type { MemorySideRaw } from '../model/raw.js';
import type { MemoryDetail } from '../scorecard/schema.js';

export interface ProcStatus {
  name: string;
  rssBytes: number;
  hwmBytes: number;
  rssAnonBytes?: number;
  rssFileBytes?: number;
  rssShmemBytes?: number;
}

/**
 * The memory fields of /proc/<pid>/status. The kernel writes them as "VmRSS:\t  1234 kB" (kB
 * meaning KiB). A zombie or kernel thread has no VmRSS: undefined then.
 */
export function parseStatus(text: string): ProcStatus | undefined {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const kib = (key: string): number | undefined => {
    const m = /^(\d+) kB$/.exec(fields.get(key) ?? '');
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const rssBytes = kib('VmRSS');
  const hwmBytes = kib('VmHWM');
  if (rssBytes === undefined || hwmBytes === undefined) return undefined;
  const status: ProcStatus = { name: fields.get('Name') ?? '?', rssBytes, hwmBytes };
  const anon = kib('RssAnon');
  const file = kib('RssFile');
  const shmem = kib('RssShmem');
  if (anon !== undefined) status.rssAnonBytes = anon;
  if (file !== undefined) status.rssFileBytes = file;
  if (shmem !== undefined) status.rssShmemBytes = shmem;
  return status;
}

/**
 * The program a process runs: the file name of its argv[0] ("node", "java"). The status file's
 * Name is the main thread's name, which a runtime may rename (Node 24 calls it "MainThread").
 */
async function programName(pid: number, fallback: string, proc: ProcReader): Promise<string> {
  const argv0 = (await proc.read(`/proc/${pid}/cmdline`))?.split('\0')[0];
  return argv0 ? (argv0.split('/').at(-1) ?? argv0) : fallback;
}

/**
 * Resident memory of a process and all its descendants, summed. A descendant that exits
 * while being read is left out; the root must be readable.
 */
export async function processTreeMemory(
  pid: number,
  proc: ProcReader,
): Promise<{ detail: MemoryDetail } | { error: string }> {
  const rootText = await proc.read(`/proc/${pid}/status`);
  if (rootText === undefined) return { error: `/proc/${pid}/status not found: the process is gone` };
  const root = parseStatus(rootText);
  if (!root) return { error: `/proc/${pid}/status has no VmRSS/VmHWM: the process has exited` };
  const members: (ProcStatus & { pid: number })[] = [
    { pid, ...root, name: await programName(pid, root.name, proc) },
  ];
  for (const child of await descendants(pid, proc)) {
    const text = await proc.read(`/proc/${child}/status`);
    const status = text === undefined ? undefined : parseStatus(text);
    if (status) members.push({ pid: child, ...status, name: await programName(child, status.name, proc) });
  }
  // A split is given only when every process reports it (kernels before 4.5 have no RssAnon).
  const sum = (pick: (s: ProcStatus) => number | undefined) => {
    const values = members.map(pick);
    return values.every((v) => v !== undefined) ? values.reduce((a, b) => a + b, 0) : undefined;
  };
  const anon = sum((s) => s.rssAnonBytes);
  const file = sum((s) => s.rssFileBytes);
  const shmem = sum((s) => s.rssShmemBytes);
  return {
    detail: {
      rssBytes: members.reduce((a, m) => a + m.rssBytes, 0),
      hwmBytes: members.reduce((a, m) => a + m.hwmBytes, 0),
      ...(anon === undefined ? {} : { rssAnonBytes: anon }),
      ...(file === undefined ? {} : { rssFileBytes: file }),
      ...(shmem === undefined ? {} : { rssShmemBytes: shmem }),
      processes: members.map((m) => ({
        pid: m.pid,
        name: m.name,
        rssBytes: m.rssBytes,
        hwmBytes: m.hwmBytes,
      })),
    },
  };
}

/**
 * The memory row's measurement on one engine: its process tree's VmRSS (and VmHWM) now. Only
 * an engine the harness started has a pid to read (engines by URL: measureNodeStatsMemory).
 */
export async function measureMemory(
  engine: Pick<RunningEngine, 'role' | 'pid' | 'jvmHeap'>,
  restarts = 0,
  proc: ProcReader = procFs,
): Promise<MemorySideRaw> {
  if (engine.pid === undefined)
    return {
      supported: false,
      error: `not measured: given by --${engine.role}-url, so the harness has no process of it to read /proc from`,
      restarts,
    };
  const tree = await processTreeMemory(engine.pid, proc);
  if ('error' in tree) return { supported: false, error: tree.error, restarts };
  if (engine.jvmHeap) tree.detail.jvmHeap = engine.jvmHeap;
  return { supported: true, detail: tree.detail, restarts };
}

/**
 * The current process of a run's side (a restarted engine is a new pid); a dead one fails the row.
 * An engine given by URL is read through its node stats API instead (engines/nodeStats.ts).
 */
export async function measureSideMemory(side: Side, proc: ProcReader = procFs): Promise<MemorySideRaw> {
  side.check();
  if (side.engine.pid === undefined) return measureNodeStatsMemory(side);
  return measureMemory(side.engine, side.restarts, proc);
}

/** The memory row's measurement on an engine given by URL, from its `_nodes/stats`. */
export async function measureNodeStatsMemory(side: Pick<Side, 'json' | 'restarts'>): Promise<MemorySideRaw> {
  const read = await nodeStatsMemory((path) => side.json('GET', path));
  if (typeof read === 'string')
    return { supported: false, error: `not measured: ${read}`, restarts: side.restarts };
  const detail: MemoryDetail = {
    rssBytes: read.bytes,
    source: 'nodes-stats',
    field: read.field,
    processes: [],
    nodes: read.nodes,
  };
  if (read.lowerBound) detail.lowerBound = true;
  return { supported: true, detail, restarts: side.restarts };
}
