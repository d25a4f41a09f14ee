import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { corpusById } from '../../src/corpus/corpora.js';
import { selectFamilies } from '../../src/families/index.js';
import { REPO_ROOT } from '../../src/repo.js';
import { compareCounts } from '../../src/workcount/compare.js';
import { countBuilds, prepareCount } from '../../src/workcount/compareBuilds.js';
import { buildRunner } from '../../src/workcount/runnerBuild.js';
import type { BuildCount } from '../../src/workcount/types.js';
import { tempDir } from '../helpers/tempDir.js';

const hasValgrind = (() => {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The whole count path on a small index: the runner built from this checkout, the corpus loaded
 * through the candidate's service, requests from the families, callgrind's dumps read back.
 */
describe.skipIf(!hasValgrind)('the count runner under callgrind', () => {
  it('counts two runs of one build the same to the instruction, and finds a plant on its row only', async () => {
    const families = selectFamilies('query.term,query.match,bucket.terms,feature.mget');
    const setup = {
      corpus: corpusById('llm-telemetry'),
      docs: 2000,
      seed: 42,
      families,
      sizes: { warmup: 2, timed: 4 },
      workDir: tempDir('workcount-'),
      cacheSim: false,
      log: () => {},
    };
    const runner = buildRunner(REPO_ROOT, () => {});
    const prepared = await prepareCount(setup);
    const [a, b, planted] = (await countBuilds(setup, prepared, [
      { name: 'a', runner },
      { name: 'b', runner },
      { name: 'planted', runner, plant: 'query.match=200000' },
    ])) as BuildCount[];
    const ctx = {
      baseRevision: 'x',
      headRevision: 'x',
      corpus: { name: 'llm-telemetry', docs: 2000, seed: 42 },
      sizes: setup.sizes,
      timings: {},
    };
    expect(a?.rows.map((r) => [r.row, r.ok])).toEqual(families.map((f) => [f.id, 4]));
    for (const r of a?.rows ?? []) expect(r.instructionsPerRequest, r.row).toBeGreaterThan(10_000);
    expect(b?.rows).toEqual(a?.rows);
    const withPlant = compareCounts(a as BuildCount, planted as BuildCount, ctx);
    expect(withPlant.rows.filter((r) => r.verdict !== 'SAME').map((r) => r.row)).toEqual(['query.match']);
    expect(withPlant.rows.filter((r) => r.row !== 'query.match').every((r) => r.change === 0)).toBe(true);
  }, 600_000);
});
