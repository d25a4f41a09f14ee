import { join } from 'node:path';
import { startCandidate } from '../engines/candidate.js';
import { ensureBaselineBuilt, startOpenSearch } from '../engines/opensearch.js';
import { startOpenSearchCluster } from '../engines/opensearchCluster.js';
import { freePort } from '../engines/ports.js';
import { connectRemote } from '../engines/remote.js';
import type { RunningEngine } from '../engines/types.js';

export interface EngineSources {
  candidateUrl?: string;
  baselineUrl?: string;
  /** Nodes of the baseline OpenSearch to start (--baseline-nodes): above 1, a cluster on this machine. */
  baselineNodes?: number;
  /** A/A: one side is a second, independent process of the other's engine (noise calibration). */
  aa?: false | 'baseline' | 'candidate';
  /** Calibration only: extra CPU fraction the candidate-role service adds to each search. */
  calibrationExtraCpu?: number;
  /** Run folder for engine data and logs (outside scorecards/). */
  runDir: string;
  /** The merge-base build's service (dist/server.js), started as a third engine: the 'base' role. */
  baseServer?: string;
  log(line: string): void;
}

/**
 * Start (or connect to) both engines. If one fails, the other is stopped before the error
 * propagates: a failed start never leaves a JVM behind.
 */
export async function startEngines(
  src: EngineSources,
): Promise<{ candidate: RunningEngine; baseline: RunningEngine; base?: RunningEngine }> {
  const candidate = (async (): Promise<RunningEngine> => {
    if (src.candidateUrl) return connectRemote('candidate', src.candidateUrl);
    if (src.aa === 'baseline') {
      await ensureBaselineBuilt({ log: src.log });
      const twin = await startOpenSearch({
        dataDir: join(src.runDir, 'candidate-aa', 'home'),
        logFile: join(src.runDir, 'candidate-aa', 'engine.log'),
        port: await freePort(),
      });
      // Same product on the candidate side: every WIN or LOSE it earns is a false one.
      const asCandidate = (e: RunningEngine): RunningEngine => {
        const restart = e.restart;
        return {
          ...e,
          role: 'candidate',
          product: `${e.product} (A/A twin)`,
          ...(restart ? { restart: async () => asCandidate(await restart()) } : {}),
        };
      };
      return asCandidate(twin);
    }
    return startCandidate({
      dataDir: join(src.runDir, 'candidate', 'data'),
      logFile: join(src.runDir, 'candidate', 'engine.log'),
      port: await freePort(),
      // Calibration's power run only: never set in a benchmark run.
      ...(src.calibrationExtraCpu
        ? { env: { EVERYCELL_CALIBRATION_EXTRA_CPU: String(src.calibrationExtraCpu) } }
        : {}),
    });
  })();
  const baseline = (async () => {
    if (src.baselineUrl) return connectRemote('baseline', src.baselineUrl);
    if (src.aa === 'candidate') {
      // Same build on the baseline side: every WIN or LOSE it earns is a false one.
      const twin = await startCandidate({
        role: 'baseline',
        dataDir: join(src.runDir, 'baseline-aa', 'data'),
        logFile: join(src.runDir, 'baseline-aa', 'engine.log'),
        port: await freePort(),
      });
      const asTwin = (e: RunningEngine): RunningEngine => {
        const restart = e.restart;
        return {
          ...e,
          product: `${e.product} (A/A twin)`,
          ...(restart ? { restart: async () => asTwin(await restart()) } : {}),
        };
      };
      return asTwin(twin);
    }
    await ensureBaselineBuilt({ log: src.log });
    const where = {
      dataDir: join(src.runDir, 'baseline', 'home'),
      logFile: join(src.runDir, 'baseline', 'engine.log'),
      port: await freePort(),
    };
    const nodes = src.baselineNodes ?? 1;
    return nodes > 1 ? startOpenSearchCluster({ ...where, nodes }) : startOpenSearch(where);
  })();
  const base = (async () => {
    if (!src.baseServer) return undefined;
    return startCandidate({
      server: src.baseServer,
      role: 'base',
      dataDir: join(src.runDir, 'base', 'data'),
      logFile: join(src.runDir, 'base', 'engine.log'),
      port: await freePort(),
    });
  })();
  const [c, b, a] = await Promise.allSettled([candidate, baseline, base]);
  if (c.status === 'fulfilled' && b.status === 'fulfilled' && a.status === 'fulfilled')
    return { candidate: c.value, baseline: b.value, ...(a.value ? { base: a.value } : {}) };
  for (const r of [c, b, a]) if (r.status === 'fulfilled') await r.value?.stop();
  const reasons = [c, b, a].filter((r) => r.status === 'rejected').map((r) => (r.reason as Error).message);
  throw new Error(reasons.join('\n'));
}
