import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pinTree } from '../engines/placement.js';
import { type Clock, realClock } from '../load/clock.js';
import { recordHarnessSched } from '../load/harnessSched.js';
import { EngineClient, outcomeOf, TransportError } from '../load/http.js';
import { runOpenLoop } from '../load/openLoop.js';
import { constantRate } from '../load/scheduler.js';
import type { Sample, SendResult } from '../model/samples.js';
import type { RunSettings } from '../model/settings.js';
import type { Floor } from '../scorecard/schema.js';
import { percentileSorted, sortedCopy } from '../stats/percentile.js';
import { floorSplit, parseStamps, type Trip } from './floorSplit.js';
import { type ChildServer, spawnServer } from './spawnServer.js';

export const NULL_SERVER = fileURLToPath(new URL('./nullServer.ts', import.meta.url));

/** A search-shaped request like the read rows send, so the client does the same work. */
export const FLOOR_PATH = '/floor/_search?request_cache=false';
export const FLOOR_BODY = JSON.stringify({
  query: { bool: { filter: [{ term: { service: 'checkout' } }] } },
  size: 10,
  track_total_hits: true,
});

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Caps on the floor's requests: its p50 and p99 settle within a few hundred requests, and a run
 * with --iterations 5000 should not spend 25 s on it.
 */
const MAX_TIMED = 1000;
const MAX_WARMUP = 200;

/** Send `count` open-loop requests to the server with the same client, scheduler and clock as a read row. */
export async function floorPhase(
  url: string,
  count: number,
  settings: Pick<RunSettings, 'rate' | 'connections' | 'timeoutMs'>,
  clock: Clock = realClock,
  kind: Sample['phase'] = 'timed',
  trips?: Map<number, Trip>,
): Promise<Sample[]> {
  const client = new EngineClient(url, settings.connections, settings.timeoutMs);
  const send = async (i: number): Promise<SendResult> => {
    try {
      const sentNs = process.hrtime.bigint();
      const res = await client.request('POST', FLOOR_PATH, FLOOR_BODY);
      const gotNs = process.hrtime.bigint();
      const stamps = trips && parseStamps(res.nullServerNs);
      if (stamps) trips?.set(i, { sentNs, gotNs, ...stamps });
      return outcomeOf(res);
    } catch (error) {
      if (error instanceof TransportError)
        return { outcome: error.kind === 'timeout' ? 'timeout' : 'transport_error', status: 0 };
      throw error;
    }
  };
  try {
    return await runOpenLoop({
      count,
      schedule: constantRate(settings.rate),
      clock,
      maxInFlight: settings.connections,
      phase: kind,
      send,
    });
  } finally {
    await client.close();
  }
}

/** The run-queue wait of every thread of a process so far, ns (schedstat field 2); undefined off Linux. */
function runQueueWaitNs(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce(
      (sum, tid) => sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]),
      0,
    );
  } catch {
    return undefined;
  }
}

/** p50/p99 of latency and of send lag over a floor phase's successful requests. */
export function floorOf(samples: readonly Sample[], rate: number): Floor {
  const ok = samples.filter((s) => s.outcome === 'ok');
  if (ok.length === 0) {
    const failed = samples.filter((s) => s.outcome !== 'ok').length;
    throw new Error(`the null server answered none of ${samples.length} requests (${failed} failed)`);
  }
  // Nearest rank even below 100 samples: the floor is a reference line, not a reported tail.
  const lat = sortedCopy(ok.map((s) => s.latencyMs));
  const lag = sortedCopy(ok.map((s) => s.lagMs));
  return {
    rate,
    p50: round3(percentileSorted(lat, 50)),
    p99: round3(percentileSorted(lat, 99)),
    sendLagP50: round3(percentileSorted(lag, 50)),
    sendLagP99: round3(percentileSorted(lag, 99)),
  };
}

/**
 * The harness's floor for this run: a null HTTP server in its own process on 127.0.0.1, measured
 * with the run's client, scheduler, rate and iteration count (capped at MAX_TIMED), after an
 * untimed warmup of the client and the server's JIT. Every read-row latency includes this much harness.
 */
export async function measureFloor(
  settings: Pick<RunSettings, 'rate' | 'connections' | 'timeoutMs' | 'iterations' | 'prewarm'>,
  clock: Clock = realClock,
  serverCpus?: readonly number[],
): Promise<Floor> {
  let server: ChildServer | undefined;
  try {
    server = await spawnServer(NULL_SERVER);
    // Where an engine would run, so the floor is the harness as the read rows see it.
    if (serverCpus) await pinTree(server.pid, serverCpus);
    const warmup = Math.min(MAX_WARMUP, Math.max(50, settings.prewarm));
    await floorPhase(server.url, warmup, settings, clock, 'warmup');
    const timed = Math.min(MAX_TIMED, settings.iterations);
    const trips = new Map<number, Trip>();
    const harnessSched = recordHarnessSched();
    const serverWait0 = runQueueWaitNs(server.pid);
    const samples = await floorPhase(server.url, timed, settings, clock, 'timed', trips);
    const serverWait1 = runQueueWaitNs(server.pid);
    const harnessWait = harnessSched()?.runQueueWaitMs;
    const floor = floorOf(samples, settings.rate);
    const p50 = floorSplit(samples, trips, 50);
    const p99 = floorSplit(samples, trips, 99);
    if (p50 && p99) floor.split = { p50, p99 };
    const waits: NonNullable<Floor['runQueueWaitMs']> = {};
    if (harnessWait !== undefined) waits.harness = round3(harnessWait);
    if (serverWait0 !== undefined && serverWait1 !== undefined)
      waits.server = round3((serverWait1 - serverWait0) / 1e6);
    if (Object.keys(waits).length > 0) floor.runQueueWaitMs = waits;
    return floor;
  } finally {
    await server?.stop();
  }
}

/**
 * The run's floor as bench.ts takes it: measured right before the read rows, with both engines
 * up, warm and idle, so the harness shares the machine as it will during the reads. A floor
 * that cannot be measured is logged and left out: no row is then marked below resolution.
 */
export async function measureRunFloor(
  settings: Pick<RunSettings, 'rate' | 'connections' | 'timeoutMs' | 'iterations' | 'prewarm'>,
  log: (line: string) => void,
  serverCpus?: readonly number[],
): Promise<Floor | undefined> {
  try {
    const floor = await measureFloor(settings, realClock, serverCpus);
    const p99 = floor.split?.p99;
    const where = p99
      ? `; its p99: to server ${p99.toServerMs}, in server ${p99.inServerMs}, back ${p99.toClientMs} ms`
      : '';
    log(
      `floor: p50 ${floor.p50} ms, p99 ${floor.p99} ms, send lag p50 ${floor.sendLagP50} / p99 ${floor.sendLagP99} ms at ${floor.rate} req/s (harness vs a null server)${where}`,
    );
    return floor;
  } catch (error) {
    log(`floor: not measured (${(error as Error).message}); no row can be marked below resolution`);
    return undefined;
  }
}
