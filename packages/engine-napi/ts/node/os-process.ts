/**
 * The process and the machine as ES's node statistics and node info report them: CPU time
 * and percent, memory, open files (from `/proc` on Linux) and the machine's memory and load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

/** CPU percent over the time since the previous reading (ES reports a recent percent too). */
class CpuPercent {
  #last: { wallMs: number; busyMs: number } | undefined;
  constructor(private readonly busyMs: () => number) {}

  read(wallMs: number): number {
    const busyMs = this.busyMs();
    const last = this.#last ?? { wallMs: wallMs - process.uptime() * 1000, busyMs: 0 };
    this.#last = { wallMs, busyMs };
    const span = wallMs - last.wallMs;
    return span > 0 ? Math.max(0, Math.round(((busyMs - last.busyMs) / span) * 100)) : 0;
  }
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const processCpu = new CpuPercent(processCpuMs);
const cores = Math.max(1, cpus().length);
const machineBusyMs = () =>
  cpus().reduce((ms, c) => ms + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0) / cores;
const machineCpu = new CpuPercent(machineBusyMs);

/** A field of /proc/self/status in bytes ("VmSize:\t 123 kB"), or undefined off Linux. */
export function procStatusBytes(field: string): number | undefined {
  try {
    const line = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    const kib = line ? Number(/(\d+) kB/.exec(line)?.[1]) : Number.NaN;
    return Number.isFinite(kib) ? kib * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function openFiles(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

export function processStats(now: number) {
  const virtual = procStatusBytes('VmSize');
  return {
    timestamp: now,
    open_file_descriptors: openFiles(),
    max_file_descriptors: maxFiles(),
    cpu: { percent: processCpu.read(now), total_in_millis: Math.round(processCpuMs()) },
    mem: {
      ...(virtual === undefined ? {} : { total_virtual_in_bytes: virtual }),
      resident_in_bytes: process.memoryUsage.rss(),
    },
  };
}

export function osStats(now: number) {
  const total = totalmem();
  const free = freemem();
  const [one, five, fifteen] = loadavg();
  return {
    timestamp: now,
    cpu: { percent: machineCpu.read(now), load_average: { '1m': one, '5m': five, '15m': fifteen } },
    mem: {
      total_in_bytes: total,
      free_in_bytes: free,
      used_in_bytes: total - free,
      free_percent: Math.round((free / total) * 100),
      used_percent: Math.round(((total - free) / total) * 100),
    },
  };
}

/** The most files the process may open (`Max open files` of `/proc/self/limits`), or -1. */
export function maxFiles(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'latin1')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const n = Number(line?.split(/\s+/)[3]);
    return Number.isFinite(n) ? n : -1;
  } catch {
    return -1;
  }
}

/** Threads of this process (`Threads:` of `/proc/self/status`), or -1 off Linux. */
export function threadCount(): number {
  try {
    const line = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .find((l) => l.startsWith('Threads:'));
    const n = Number(line?.split(/\s+/)[1]);
    return Number.isFinite(n) ? n : -1;
  } catch {
    return -1;
  }
}

export const availableProcessors = cores;
