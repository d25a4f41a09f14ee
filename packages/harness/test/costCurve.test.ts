import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCostCurveRuns } from '../src/cli/costCurveWith.js';
import { UsageError } from '../src/cli/flags.js';
import { costCurveOf, growth } from '../src/scorecard/costCurve.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { scorecardProblems } from '../src/scorecard/validate.js';
import { sampleCard } from './helpers/card.js';

/** The sample card at another size, its term row's p50 and CPU per request given. */
function pass(
  runId: string,
  docs: number,
  term: { c: number; b: number; cCpu: number; bCpu: number },
): Scorecard {
  const card = sampleCard(runId, [
    {},
    {
      candidate: {
        supported: true,
        samples: 600,
        errors: 0,
        p50: term.c,
        p99: 9,
        cpuMsPerRequest: term.cCpu,
      },
      baseline: { supported: true, samples: 600, errors: 0, p50: term.b, p99: 4, cpuMsPerRequest: term.bCpu },
    },
  ]);
  card.manifest.corpus.docs = docs;
  return card;
}

describe('the cost curve of a pass set', () => {
  const small = pass('20261127T010000Z-abcdef1', 100_000, { c: 0.4, b: 1.2, cCpu: 0.2, bCpu: 0.9 });
  const large = pass('20261127T020000Z-abcdef1', 1_000_000, { c: 1.0, b: 6.0, cCpu: 0.5, bCpu: 4.5 });

  it('takes each latency row of the last pass at every size, in pass order', () => {
    const curve = costCurveOf([small, large]);
    expect(curve?.docs).toEqual([100_000, 1_000_000]);
    expect(curve?.runIds).toEqual([small.runId, large.runId]);
    // Only latency rows: the ingest row (docs/s) is not a cost per request.
    expect(curve?.rows.map((r) => r.id)).toEqual(['query.term', 'bucket.terms']);
    expect(curve?.rows[0]).toEqual({
      id: 'query.term',
      candidateP50: [0.4, 1.0],
      baselineP50: [1.2, 6.0],
      candidateCpuMs: [0.2, 0.5],
      baselineCpuMs: [0.9, 4.5],
    });
    // The row the candidate refused has no values on its side, whatever the baseline measured.
    expect(curve?.rows[1]?.candidateP50).toEqual([null, null]);
  });

  it('is absent for a single pass, and growth needs both ends', () => {
    expect(costCurveOf([large])).toBeUndefined();
    expect(growth([0.4, 1.0])).toBeCloseTo(2.5);
    expect(growth([null, 1.0])).toBeUndefined();
  });

  it('renders in SCORECARD.md and passes the scorecard check', () => {
    const card = { ...large, costCurve: costCurveOf([small, large]) };
    const md = renderMarkdown(card);
    expect(md).toContain('## Cost curve');
    expect(md).toContain('100,000, 1,000,000 documents');
    expect(md).toContain(
      '| `query.term` | 0.4 -> 1 (2.5x) | 1.2 -> 6 (5x) | 0.2 -> 0.5 (2.5x) | 0.9 -> 4.5 (5x) |',
    );
    expect(md).toContain('| `bucket.terms` | n/a -> n/a |');
    expect(renderMarkdown(large)).not.toContain('## Cost curve');
    expect(scorecardProblems('card.json', JSON.parse(JSON.stringify(card)))).toEqual([]);
    const broken = JSON.parse(JSON.stringify(card));
    broken.costCurve.rows[0].candidateP50 = ['fast'];
    expect(scorecardProblems('card.json', broken).join('\n')).toContain('costCurve');
  });
});

describe('a cost curve opened by earlier published runs (--cost-curve-with)', () => {
  const small = pass('20261127T010000Z-abcdef1', 100_000, { c: 0.4, b: 1.2, cCpu: 0.2, bCpu: 0.9 });
  const large = pass('20261127T020000Z-abcdef1', 1_000_000, { c: 1.0, b: 6.0, cCpu: 0.5, bCpu: 4.5 });
  const root = mkdtempSync(join(tmpdir(), 'cost-curve-with-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const publish = (card: Scorecard, name = card.runId) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'scorecard.json'), JSON.stringify(card));
    return name;
  };
  const read = (dirs: string[], scales = [10_000_000], corpus = 'llm-telemetry-v1', seed = 42) =>
    readCostCurveRuns(dirs.join(','), corpus, seed, scales, root);

  it("reads the runs in order, and the curve records each size's load and says when they differ", () => {
    const runs = read([publish(small), publish(large)]);
    expect(runs.map((r) => r.manifest.corpus.docs)).toEqual([100_000, 1_000_000]);
    const tenM = pass('20261127T040000Z-abcdef1', 10_000_000, { c: 9, b: 80, cCpu: 4, bCpu: 40 });
    tenM.manifest.settings = { ...tenM.manifest.settings, rate: 50, iterations: 200 };
    const curve = costCurveOf([...runs, tenM]);
    expect(curve?.docs).toEqual([100_000, 1_000_000, 10_000_000]);
    expect(curve?.loads).toEqual([
      { rate: 200, iterations: 600 },
      { rate: 200, iterations: 600 },
      { rate: 50, iterations: 200 },
    ]);
    const md = renderMarkdown({ ...tenM, costCurve: curve });
    expect(md).toContain('The sizes ran at different read loads (200 req/s with 600 timed requests per row;');
    expect(md).toContain('| `query.term` | 0.4 -> 1 -> 9 (22.5x) |');
    // One load throughout: nothing to say.
    expect(renderMarkdown({ ...large, costCurve: costCurveOf([small, large]) })).not.toContain(
      'different read loads',
    );
  });

  it('refuses a missing folder, another corpus or seed, an incomplete run, and sizes out of order', () => {
    publish(small);
    publish(large);
    expect(() => read(['nowhere'])).toThrow(/no scorecard.json there/);
    expect(() => read([small.runId], [10_000_000], 'wordnet-3.1')).toThrow(
      /corpus llm-telemetry-v1 seed 42, but/,
    );
    expect(() => read([small.runId], [10_000_000], 'llm-telemetry-v1', 7)).toThrow(UsageError);
    expect(() => read([large.runId, small.runId])).toThrow(/growing size/);
    expect(() => read([large.runId], [100_000])).toThrow(/all below --docs \(100000\)/);
    const partial = publish({ ...small, status: 'partial' }, 'partial-run');
    expect(() => read([partial])).toThrow(/the run is partial/);
    expect(() => read([''])).toThrow(/needs run folders/);
  });
});
