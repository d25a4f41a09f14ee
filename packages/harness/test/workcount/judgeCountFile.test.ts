import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/gate/judge.js';
import { ScorecardInputError } from '../../src/gate/scorecards.js';
import { writeCountComparison } from '../../src/workcount/countFile.js';
import type { CountComparison } from '../../src/workcount/types.js';
import { CLEAN, card, TODAY } from '../helpers/gateCards.js';
import { tempDir } from '../helpers/tempDir.js';

const comparison: CountComparison = {
  baseRevision: '1234567890abcdef',
  headRevision: 'fedcba0987654321',
  threshold: 0.03,
  corpus: { name: 'llm-telemetry', docs: 20_000, seed: 42 },
  sizes: { warmup: 10, timed: 40 },
  rows: [
    { row: 'query.term', base: 1000, head: 1000, change: 0, verdict: 'SAME', reason: 'same' },
    { row: 'query.match', base: 1000, head: 1040, change: 0.04, verdict: 'REGRESSED', reason: 'up 4%' },
  ],
  timings: { total: 120_000 },
};

function runFolder() {
  const dir = tempDir('gate-counts-');
  const c = card({ rows: { ...CLEAN } });
  const run = join(dir, 'out', c.runId);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'scorecard.json'), JSON.stringify(c));
  writeFileSync(join(dir, 'waivers.json'), JSON.stringify({ waivers: [] }));
  return { dir, run };
}

describe('the gate reads the count check from the run folder', () => {
  it('fails with exit 4 on workcount.json beside the scorecard, and writes the section', () => {
    const { dir, run } = runFolder();
    writeCountComparison(run, comparison);
    const code = judge({
      scorecard: join(dir, 'out'),
      waivers: join(dir, 'waivers.json'),
      summary: join(dir, 'summary.md'),
      comment: join(dir, 'comment.md'),
      today: TODAY,
      print: () => {},
    });
    expect(code).toBe(4);
    for (const file of ['summary.md', 'comment.md'])
      expect(readFileSync(join(dir, file), 'utf8')).toMatch(
        /Instructions per request against the merge-base build `1234567`/,
      );
  });

  it('judges a run without one as before, and refuses a malformed one as bad input', () => {
    const { dir, run } = runFolder();
    const opts = {
      scorecard: join(dir, 'out'),
      waivers: join(dir, 'waivers.json'),
      today: TODAY,
      print: () => {},
    };
    expect(judge(opts)).toBe(0);
    writeFileSync(join(run, 'workcount.json'), '{"rows": 3}');
    expect(() => judge(opts)).toThrow(ScorecardInputError);
  });
});
