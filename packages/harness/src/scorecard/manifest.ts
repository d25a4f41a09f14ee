import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningEngine } from '../engines/types.js';
import type { RunSettings } from '../runner/settings.js';
import type { EngineInfo, Manifest } from './schema.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** Full commit sha, or "none" before the first commit. */
export function gitRevision(): string {
  return git(['rev-parse', 'HEAD']) ?? 'none';
}

/** Uncommitted changes make a run irreproducible from its revision alone: record that. */
export function gitDirty(): boolean {
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return status === undefined || status.length > 0;
}

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
  };
}

export function buildManifest(args: {
  candidate: EngineInfo;
  baseline: EngineInfo;
  corpus: Manifest['corpus'];
  settings: RunSettings;
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
    gitRevision: gitRevision(),
    candidate: args.candidate,
    baseline: args.baseline,
    corpus: args.corpus,
    settings: {
      ...args.settings,
      undici: undiciVersion(),
      gitDirty: gitDirty(),
      latencyMeasuredFrom: 'intended send time (open loop)',
      percentiles: 'nearest rank; p99 only with >= 100 samples',
      ...args.extra,
    },
  };
}
