import { buildScorecard } from '../../src/scorecard/build.js';
import type { Manifest, RowResult, Scorecard } from '../../src/scorecard/schema.js';

/** The manifest every test scorecard shares; `settings` are the ones a test cares about. */
export function testManifest(docs: number, settings: Manifest['settings']): Manifest {
  return {
    machine: {
      cpuModel: 'Test CPU',
      cores: 2,
      memoryBytes: 24 * 2 ** 30,
      kernel: 'Linux 6.1',
      platform: 'linux-x64',
    },
    node: 'v20.20.2',
    gitRevision: 'abcdef1234567890',
    candidate: {
      role: 'candidate',
      product: 'everycell 0.1.0',
      version: '0.1.0',
      url: 'http://127.0.0.1:1',
      startedByHarness: true,
    },
    baseline: {
      role: 'baseline',
      product: 'OpenSearch 2.19.1',
      version: '2.19.1',
      url: 'http://127.0.0.1:2',
      startedByHarness: true,
    },
    corpus: { name: 'llm-telemetry-v1', seed: 42, docs, contentHash: 'f'.repeat(64) },
    settings,
  };
}

/** A small but complete scorecard for rendering and history tests. */
export function sampleCard(
  runId = '20261122T023000Z-abcdef1',
  overrides: Partial<RowResult>[] = [],
): Scorecard {
  const manifest = testManifest(2000, {
    rate: 200,
    iterations: 600,
    rounds: 2,
    warmup: 15,
    tieMargin: 0.05,
    collapseErrorRate: 0.01,
    undici: '7.30.2',
  });
  const rows: RowResult[] = [
    {
      id: 'ingest.1-client',
      group: 'ingest',
      family: 'bulk',
      title: 'bulk ingest',
      unit: 'docs/s',
      betterIs: 'higher',
      candidate: { supported: true, samples: 2, errors: 0, value: 30000, p50: 30 },
      baseline: { supported: true, samples: 2, errors: 0, value: 10000, p50: 90 },
      ratio: 3,
      ci: [2.5, 3.5],
      verdict: 'WIN',
      reason: 'ratio 3.000, 95% CI [2.500, 3.500]: interval above 1 and ratio >= 1.050',
    },
    {
      id: 'query.term',
      group: 'query',
      family: 'term',
      title: 'term | tenant',
      unit: 'ms',
      betterIs: 'lower',
      candidate: { supported: true, samples: 600, errors: 0, p50: 2, p99: 9 },
      baseline: { supported: true, samples: 600, errors: 0, p50: 1, p99: 4 },
      ratio: 0.5,
      ci: [0.45, 0.55],
      verdict: 'LOSE',
      reason: 'ratio 0.500, 95% CI [0.450, 0.550]: interval below 1 and ratio <= 0.952',
    },
    {
      id: 'bucket.terms',
      group: 'bucket',
      family: 'terms',
      title: 'terms by model',
      unit: 'ms',
      betterIs: 'lower',
      candidate: { supported: false, samples: 0, errors: 0, error: 'HTTP 400 parsing_exception: no terms' },
      baseline: { supported: true, samples: 0, errors: 0 },
      verdict: 'N/A',
      reason: 'not comparable, candidate: HTTP 400 parsing_exception: no terms',
    },
  ].map((r, i) => ({ ...r, ...(overrides[i] ?? {}) })) as RowResult[];
  return buildScorecard({
    runId,
    createdAt: new Date('2026-11-22T02:30:00Z'),
    durationMs: 1234,
    status: 'complete',
    manifest,
    rows,
  });
}
