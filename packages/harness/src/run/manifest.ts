import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { clusterIndexShape } from '../corpus/clusterShards.js';
import type { RunningEngine } from '../engines/types.js';
import type { RunSettings } from '../model/settings.js';
import { gitRevision } from '../repo.js';
import type { EngineInfo, Manifest } from '../scorecard/schema.js';

export function undiciVersion(): string {
  const entry = createRequire(import.meta.url).resolve('undici');
  let dir = dirname(entry);
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'undici' && pkg.version) return pkg.version;
    } catch {
      // not at the package root yet
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

export function engineInfo(engine: RunningEngine): EngineInfo {
  return {
    role: engine.role,
    product: engine.product,
    version: engine.version,
    url: engine.url,
    startedByHarness: engine.pid !== undefined,
    // A cluster the harness started (--baseline-nodes): its shape keys the comparable set.
    ...(engine.cluster
      ? {
          topology: {
            nodes: engine.cluster.nodes,
            ...clusterIndexShape(engine.cluster.nodes),
            heapMbPerNode: engine.cluster.heapMbPerNode,
          },
        }
      : {}),
  };
}

export function buildManifest(args: {
  candidate: EngineInfo;
  baseline: EngineInfo;
  corpus: Manifest['corpus'];
  settings: RunSettings;
  /** Whether the working tree differed from the commit when the run started (the code that ran). */
  gitDirty: boolean;
  /** The revision the run started from; read now when absent. */
  gitRevision?: string;
  extra?: Manifest['settings'];
}): Manifest {
  const cpus = os.cpus();
  return {
    machine: {
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      memoryBytes: os.totalmem(),
      kernel: `${os.type()} ${os.release()}`,
      platform: `${os.platform()}-${os.arch()}`,
    },
    node: process.version,
    gitRevision: args.gitRevision ?? gitRevision(),
    candidate: args.candidate,
    baseline: args.baseline,
    corpus: args.corpus,
    settings: {
      ...args.settings,
      undici: undiciVersion(),
      gitDirty: args.gitDirty,
      latencyMeasuredFrom: 'intended send time (open loop)',
      percentiles: 'nearest rank; p99 only with >= 100 samples',
      ...args.extra,
    },
  };
}
