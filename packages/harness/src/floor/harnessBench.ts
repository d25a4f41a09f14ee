import { EngineClient } from '../load/http.js';
import { workerClock } from '../load/timerWorker.js';
import { percentileSorted, sortedCopy } from '../stats/percentile.js';
import { FLOOR_BODY, FLOOR_PATH, floorOf, floorPhase, NULL_SERVER } from './measureFloor.js';
import { spawnServer } from './spawnServer.js';
import { runWrk } from './wrk.js';

/** Targets from the issue "Verdicts you can trust". */
export const TARGETS = { ratioToWrk: 1.2, sendLagP50: 0.05, sendLagP99: 0.5 } as const;

export interface HarnessFigures {
  wrkP50: number;
  closedP50: number;
  closedCount: number;
  openRate: number;
  openP50: number;
  openP99: number;
  sendLagP50: number;
  sendLagP99: number;
  /** The same open loop with the sleeps timed by a worker thread (runner/timerWorker.ts). */
  worker: { p50: number; p99: number; sendLagP50: number; sendLagP99: number; cpuMs: number };
  /** Harness CPU time (user + system) of the spin-timed open loop, ms. */
  cpuMs: number;
}

/** Back-to-back requests on one connection with the harness's client for `seconds`: its closed-loop p50. */
async function closedLoopP50(url: string, seconds: number): Promise<{ p50: number; count: number }> {
  const client = new EngineClient(url, 1, 5000);
  const latencies: number[] = [];
  try {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const t = process.hrtime.bigint();
      const res = await client.request('POST', FLOOR_PATH, FLOOR_BODY);
      if (res.status !== 200) throw new Error(`null server answered ${res.status}`);
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  } finally {
    await client.close();
  }
  return { p50: percentileSorted(sortedCopy(latencies), 50), count: latencies.length };
}

/**
 * The harness measured against a null server (its own process): wrk's closed-loop p50 on one
 * connection as the reference, the harness's client doing the same, and the harness's open loop
 * at `openRate` (latency from the intended send, and how late the scheduler sends).
 */
export async function benchHarness(opts: {
  seconds: number;
  openRate: number;
  openCount: number;
}): Promise<HarnessFigures> {
  const server = await spawnServer(NULL_SERVER);
  try {
    const url = `${server.url}${FLOOR_PATH}`;
    // Warm the server's JIT before either client is measured.
    await closedLoopP50(server.url, 1);
    const wrk = await runWrk(url, FLOOR_BODY, { seconds: opts.seconds, connections: 1 });
    const closed = await closedLoopP50(server.url, opts.seconds);
    const settings = { rate: opts.openRate, connections: 64, timeoutMs: 5000 };
    await floorPhase(server.url, Math.min(500, opts.openCount), settings, undefined, 'warmup');
    let cpu = process.cpuUsage();
    const open = floorOf(await floorPhase(server.url, opts.openCount, settings), opts.openRate);
    const cpuMs = cpuOf(process.cpuUsage(cpu));
    const clock = workerClock();
    let worker: HarnessFigures['worker'];
    try {
      cpu = process.cpuUsage();
      const w = floorOf(await floorPhase(server.url, opts.openCount, settings, clock), opts.openRate);
      worker = {
        p50: w.p50,
        p99: w.p99,
        sendLagP50: w.sendLagP50,
        sendLagP99: w.sendLagP99,
        cpuMs: cpuOf(process.cpuUsage(cpu)),
      };
    } finally {
      await clock.close();
    }
    return {
      wrkP50: wrk.p50,
      closedP50: closed.p50,
      closedCount: closed.count,
      openRate: opts.openRate,
      openP50: open.p50,
      openP99: open.p99,
      sendLagP50: open.sendLagP50,
      sendLagP99: open.sendLagP99,
      cpuMs,
      worker,
    };
  } finally {
    await server.stop();
  }
}

const ms = (x: number) => `${x.toFixed(3)} ms`;
const cpuOf = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);
const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** One table: each figure, its target where the issue sets one, and whether it was met. */
export function renderHarnessTable(f: HarnessFigures): string {
  const rows: [string, string, string, string][] = [
    ['wrk p50, closed loop, 1 connection', ms(f.wrkP50), 'reference', ''],
    [
      `harness p50, closed loop, 1 connection (${f.closedCount} requests)`,
      `${ms(f.closedP50)} = ${(f.closedP50 / f.wrkP50).toFixed(2)}x wrk`,
      `<= ${TARGETS.ratioToWrk}x`,
      mark(f.closedP50 / f.wrkP50 <= TARGETS.ratioToWrk),
    ],
    [
      `harness p50, open loop ${f.openRate} req/s (from intended send)`,
      `${ms(f.openP50)} = ${(f.openP50 / f.wrkP50).toFixed(2)}x wrk`,
      `<= ${TARGETS.ratioToWrk}x`,
      mark(f.openP50 / f.wrkP50 <= TARGETS.ratioToWrk),
    ],
    [`harness p99, open loop ${f.openRate} req/s (CPU ${f.cpuMs} ms)`, ms(f.openP99), '', ''],
    [
      `send lag p50 at ${f.openRate} req/s`,
      ms(f.sendLagP50),
      `<= ${TARGETS.sendLagP50} ms`,
      mark(f.sendLagP50 <= TARGETS.sendLagP50),
    ],
    [
      `send lag p99 at ${f.openRate} req/s`,
      ms(f.sendLagP99),
      `<= ${TARGETS.sendLagP99} ms`,
      mark(f.sendLagP99 <= TARGETS.sendLagP99),
    ],
    [
      `worker-timed open loop: p50 / p99 (CPU ${f.worker.cpuMs} ms)`,
      `${ms(f.worker.p50)} / ${ms(f.worker.p99)}`,
      '',
      '',
    ],
    [
      'worker-timed send lag p50 / p99',
      `${ms(f.worker.sendLagP50)} / ${ms(f.worker.sendLagP99)}`,
      `<= ${TARGETS.sendLagP50} / ${TARGETS.sendLagP99} ms`,
      mark(f.worker.sendLagP50 <= TARGETS.sendLagP50 && f.worker.sendLagP99 <= TARGETS.sendLagP99),
    ],
  ];
  const header: [string, string, string, string] = [
    'measure (null server, 127.0.0.1)',
    'value',
    'target',
    '',
  ];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]?.length ?? 0)));
  return all
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
