import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startCandidate } from '../engines/candidate.js';
import { cpuList, pinTree } from '../engines/placement.js';
import { freePort } from '../engines/ports.js';
import { treeCpuNs } from '../engines/proc.js';
import type { Family } from '../families/types.js';
import { EngineClient } from '../load/http.js';
import { bodiesFor, wireRequest } from '../load/readPhase.js';
import { median } from '../stats/percentile.js';
import { parseRunnerRows, runProcess } from './callgrind.js';
import { copyIndex } from './corpusIndex.js';
import { requestStream, toNdjson } from './requestStream.js';
import type { RunnerBinary } from './runnerBuild.js';

/**
 * What the service path adds over the in-process call, measured on a few rows: the same requests
 * sent one at a time through the candidate's HTTP service (HTTP, the route, JSON bodies in and
 * out, the napi hop, the event loop) against the runner calling the engine directly, both on one
 * CPU. Engine CPU per request on each path: the service's whole process tree from /proc (as the
 * bench reads it), the runner's one thread from its own clock.
 */
export interface ServiceOverheadRow {
  row: string;
  /** Median over the rounds of CPU per request, microseconds. */
  inProcessUs: number;
  serviceUs: number;
  /** serviceUs - inProcessUs. */
  addedUs: number;
  /** serviceUs / inProcessUs. */
  ratio: number;
  /** Mean client-side wall time per request through the service, microseconds (median round). */
  serviceWallUs: number;
}

export interface ServiceOverheadOptions {
  runner: RunnerBinary;
  data: string;
  families: readonly Family[];
  index: string;
  seed: number;
  /** Requests per row per round on each path. */
  requests: number;
  warmup: number;
  rounds: number;
  /** The CPU both paths run on, and the one the harness's client runs on. */
  cpu: number;
  clientCpu: number;
  workDir: string;
  log: (line: string) => void;
}

async function inProcessRound(
  opts: ServiceOverheadOptions,
  file: string,
  round: number,
): Promise<Map<string, number>> {
  const data = await copyIndex(opts.data, join(opts.workDir, `runner-${round}`));
  const r = await runProcess(
    'taskset',
    ['-c', cpuList([opts.cpu]), opts.runner.path, '--data-dir', data, '--requests', file],
    process.env,
    10 * 60_000,
  );
  if (r.code !== 0) throw new Error(`the runner exited with ${r.code}: ${r.stderr.slice(-500)}`);
  return new Map(parseRunnerRows(r.stdout).map((row) => [row.row, row.cpuNs / 1000 / row.timed]));
}

async function serviceRound(
  opts: ServiceOverheadOptions,
  round: number,
): Promise<Map<string, { cpuUs: number; wallUs: number }>> {
  const data = await copyIndex(opts.data, join(opts.workDir, `service-${round}`));
  const engine = await startCandidate({
    dataDir: data,
    logFile: join(opts.workDir, `service-${round}.log`),
    port: await freePort(),
  });
  const client = new EngineClient(engine.url, 1, 60_000);
  const out = new Map<string, { cpuUs: number; wallUs: number }>();
  try {
    await pinTree(engine.pid as number, [opts.cpu]);
    for (const family of opts.families) {
      const send = async (bodies: Record<string, unknown>[]) => {
        for (const body of bodies) {
          const w = wireRequest(family, opts.index, body);
          const res = await client.request('POST', w.path, w.body);
          if (res.status >= 300)
            throw new Error(`${family.id}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
        }
      };
      await send(bodiesFor(family, opts.seed, opts.warmup, 'warmup', 0));
      const timed = bodiesFor(family, opts.seed, opts.requests, 'round', 0);
      const cpu0 = await treeCpuNs(engine.pid as number);
      const t0 = performance.now();
      await send(timed);
      const wallUs = ((performance.now() - t0) * 1000) / timed.length;
      const cpu1 = await treeCpuNs(engine.pid as number);
      out.set(family.id, { cpuUs: ((cpu1 ?? 0) - (cpu0 ?? 0)) / 1000 / timed.length, wallUs });
    }
  } finally {
    await client.close();
    await engine.stop();
  }
  return out;
}

export async function measureServiceOverhead(opts: ServiceOverheadOptions): Promise<ServiceOverheadRow[]> {
  await mkdir(opts.workDir, { recursive: true });
  const file = join(opts.workDir, 'service-requests.ndjson');
  await writeFile(
    file,
    toNdjson(
      requestStream(opts.families, opts.index, opts.seed, { warmup: opts.warmup, timed: opts.requests }),
    ),
  );
  await pinTree(process.pid, [opts.clientCpu]);
  const inProcess: Map<string, number>[] = [];
  const service: Map<string, { cpuUs: number; wallUs: number }>[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    // Alternate which path goes first, so drift on a shared machine hits both alike.
    if (round % 2 === 0) {
      inProcess.push(await inProcessRound(opts, file, round));
      service.push(await serviceRound(opts, round));
    } else {
      service.push(await serviceRound(opts, round));
      inProcess.push(await inProcessRound(opts, file, round));
    }
    opts.log(`service overhead: round ${round + 1} of ${opts.rounds}`);
  }
  return opts.families.map((family) => {
    const inProcessUs = median(inProcess.map((m) => m.get(family.id) ?? Number.NaN));
    const serviceUs = median(service.map((m) => m.get(family.id)?.cpuUs ?? Number.NaN));
    const serviceWallUs = median(service.map((m) => m.get(family.id)?.wallUs ?? Number.NaN));
    return {
      row: family.id,
      inProcessUs,
      serviceUs,
      addedUs: serviceUs - inProcessUs,
      ratio: serviceUs / inProcessUs,
      serviceWallUs,
    };
  });
}
