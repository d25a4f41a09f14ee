import { join } from 'node:path';
import { prepareBulk } from '../corpus/bulk.js';
import { startCandidate } from '../engines/candidate.js';
import { freePort } from '../engines/ports.js';
import type { RunningEngine } from '../engines/types.js';
import type { Family } from '../families/types.js';
import { workloadById } from '../families/workloads.js';
import { realClock } from '../load/clock.js';
import { Side } from '../load/side.js';
import { waitIdle } from '../measure/idle.js';
import { loadUntimed } from '../measure/ingest.js';
import { measurable, measureRounds, prewarm, probeReadRow } from '../measure/readRow.js';
import type { RunSettings } from '../model/settings.js';
import { baseComparison } from '../verdict/baseComparison.js';
import type { BisectStep } from './search.js';

/**
 * One bisect step: the row measured on two builds of the candidate, the commit under test and
 * the known-good one, exactly as the gate's regression check measures a pull request against
 * its merge base (forks that restart both engines, prewarm, idle wait, rotating rounds; latency
 * and engine CPU per request; the same REGRESSED rule). No baseline engine: the question is
 * only whether this build is slower than the good one.
 */
export async function measureAgainstGood(opts: {
  family: Family;
  corpus: string;
  settings: RunSettings;
  candidateServer: string;
  goodServer: string;
  goodRevision: string;
  revision: string;
  workDir: string;
  log: (line: string) => void;
}): Promise<BisectStep> {
  const { family, settings, log } = opts;
  const workload = workloadById(opts.corpus);
  const corpus = prepareBulk(
    workload.corpus.documents(settings.seed, settings.docs),
    settings.bulkSize,
    workload.corpus.indexBody,
  );
  const index = workload.corpus.index;
  const abort = new AbortController().signal;
  const started: Side[] = [];
  const start = async (server: string, role: 'candidate' | 'base', name: string) => {
    const e: RunningEngine = await startCandidate({
      server,
      role,
      dataDir: join(opts.workDir, name, 'data'),
      logFile: join(opts.workDir, name, 'engine.log'),
      port: await freePort(),
    });
    const side = new Side(e, settings.connections, settings.timeoutMs, abort);
    started.push(side);
    return side;
  };
  try {
    // The good build sits in the baseline's slot: versusBase is then this build against it.
    const sides = {
      candidate: await start(opts.candidateServer, 'candidate', 'candidate'),
      baseline: await start(opts.goodServer, 'base', 'good'),
    };
    for (const side of [sides.candidate, sides.baseline]) await loadUntimed(side, corpus, index, settings);
    const raw = await probeReadRow(family, sides, index, settings);
    if (!measurable(raw))
      return {
        revision: opts.revision,
        verdict: 'N/A',
        reason: raw.candidate.error ?? raw.baseline.error ?? 'unsupported',
      };
    for (let fork = 0; fork < settings.forks; fork++) {
      for (const side of [sides.candidate, sides.baseline]) await side.fork(index, corpus.docs);
      await prewarm([family], sides, index, settings, fork);
      await waitIdle(sides, realClock);
      await measureRounds(raw, sides, index, settings, realClock, { fork, rounds: settings.rounds }, (what) =>
        log(`${opts.revision.slice(0, 7)} ${family.id} ${what}`),
      );
    }
    const v = baseComparison({ ...raw, base: raw.baseline }, settings, opts.goodRevision);
    return { revision: opts.revision, verdict: v?.verdict ?? 'N/A', reason: v?.reason ?? 'not measured' };
  } finally {
    // The sides hold the current processes: each fork restarted them.
    await Promise.all(
      started.map(async (side) => {
        await side.client.close();
        await side.engine.stop();
      }),
    );
  }
}
