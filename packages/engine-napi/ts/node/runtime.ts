/**
 * The runtime's share of node statistics, under ES's `jvm` key: this engine runs in Node, so
 * the heap is V8's (its spaces as memory pools, its collections as the collectors, minor and
 * major), the threads are the process's, and the buffer pools are the process's memory
 * mappings: `mapped` the files it maps (tantivy's segment files), `direct` its anonymous
 * mappings outside the heap. And `fs`: the file system that holds the data directory.
 */
import { readFileSync, statfsSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { threadCount } from './os-process.js';

/** Collections since start, by kind, counted as V8 reports them. */
const gc = { young: { count: 0, ms: 0 }, old: { count: 0, ms: 0 } };
// A collection ends a few times a second at most; counting it costs next to nothing.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    // NODE_PERFORMANCE_GC_MINOR (1) is a scavenge of the young generation; the rest are major.
    const slot = kind === 1 ? gc.young : gc.old;
    slot.count++;
    slot.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const started = Date.now();
let peakThreads = 0;

/** File-backed and anonymous mappings of the process: count and bytes (`/proc/self/maps`). */
function mappings(): { mapped: [number, number]; direct: [number, number] } {
  const out = { mapped: [0, 0] as [number, number], direct: [0, 0] as [number, number] };
  try {
    for (const line of readFileSync('/proc/self/maps', 'latin1').split('\n')) {
      const fields = line.split(/\s+/);
      const range = fields[0]?.split('-');
      if (range?.length !== 2) continue;
      const bytes = Number.parseInt(range[1] ?? '0', 16) - Number.parseInt(range[0] ?? '0', 16);
      const path = fields[5] ?? '';
      const slot = path.startsWith('/') ? out.mapped : path === '' ? out.direct : undefined;
      if (!slot) continue;
      slot[0]++;
      slot[1] += bytes;
    }
  } catch {
    // Off Linux: no mappings to report.
  }
  return out;
}

const pool = ([count, bytes]: [number, number]) => ({
  count,
  used_in_bytes: bytes,
  total_capacity_in_bytes: bytes,
});

export function jvmStats(now: number) {
  const heap = getHeapStatistics();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [
      s.space_name,
      {
        used_in_bytes: s.space_used_size,
        max_in_bytes: s.space_size,
        peak_used_in_bytes: s.space_used_size,
        peak_max_in_bytes: s.space_size,
      },
    ]),
  );
  const { external } = process.memoryUsage();
  const threads = threadCount();
  peakThreads = Math.max(peakThreads, threads);
  const maps = mappings();
  return {
    timestamp: now,
    uptime_in_millis: now - started,
    mem: {
      heap_used_in_bytes: heap.used_heap_size,
      heap_used_percent: Math.round((heap.used_heap_size / heap.heap_size_limit) * 100),
      heap_committed_in_bytes: heap.total_heap_size,
      heap_max_in_bytes: heap.heap_size_limit,
      non_heap_used_in_bytes: external,
      non_heap_committed_in_bytes: external,
      pools: spaces,
    },
    threads: { count: threads, peak_count: peakThreads },
    gc: {
      collectors: {
        young: { collection_count: gc.young.count, collection_time_in_millis: Math.round(gc.young.ms) },
        old: { collection_count: gc.old.count, collection_time_in_millis: Math.round(gc.old.ms) },
      },
    },
    buffer_pools: { mapped: pool(maps.mapped), direct: pool(maps.direct) },
  };
}

/** The runtime as node info describes it (ES's `jvm` section). */
export function jvmInfo() {
  const heap = getHeapStatistics();
  return {
    pid: process.pid,
    version: process.versions.node,
    vm_name: 'V8',
    vm_version: process.versions.v8,
    vm_vendor: 'Node.js',
    start_time_in_millis: started,
    mem: {
      heap_init_in_bytes: heap.total_heap_size,
      heap_max_in_bytes: heap.heap_size_limit,
      non_heap_init_in_bytes: 0,
      non_heap_max_in_bytes: 0,
      direct_max_in_bytes: 0,
    },
    gc_collectors: ['young', 'old'],
    memory_pools: getHeapSpaceStatistics().map((s) => s.space_name),
    input_arguments: process.execArgv,
  };
}

/** The mount point and file system type that hold `path` (`/proc/mounts`, longest prefix). */
function mountOf(path: string): { mount: string; type: string } {
  let best = { mount: '/', type: 'unknown' };
  try {
    for (const line of readFileSync('/proc/mounts', 'latin1').split('\n')) {
      const [, mount, type] = line.split(' ');
      if (!mount || !type) continue;
      const inside = path === mount || path.startsWith(mount.endsWith('/') ? mount : `${mount}/`);
      if (inside && mount.length >= best.mount.length) best = { mount, type };
    }
  } catch {
    // Off Linux: the root and an unknown type.
  }
  return best;
}

export function fsStats(dataDir: string, now: number) {
  const s = statfsSync(dataDir);
  const total = s.blocks * s.bsize;
  const free = s.bfree * s.bsize;
  const available = s.bavail * s.bsize;
  const { mount, type } = mountOf(dataDir);
  const sizes = { total_in_bytes: total, free_in_bytes: free, available_in_bytes: available };
  return {
    timestamp: now,
    total: sizes,
    data: [{ path: dataDir, mount: `${mount} (${type})`, type, ...sizes }],
  };
}
