import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotateFromHistory } from '../src/history/annotate.js';
import { appendRun, historyPath, withHistory } from '../src/history/db.js';
import { buildScorecard, countVerdicts, exitCodeFor } from '../src/scorecard/build.js';
import { coverageAgainst } from '../src/scorecard/coverage.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { sampleCard } from './helpers/card.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';
import { runCli } from './helpers/runCli.js';

let out: string;
const fakes: FakeEs[] = [];
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'everycell-coverage-'));
});
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await rm(out, { recursive: true, force: true });
});

/** The sample card without its LOSE, so coverage alone decides the exit status. */
function noLose(runId: string, hour: number, dropRow?: string): Scorecard {
  const card = sampleCard(runId, [{}, { verdict: 'TIE', reason: 'tie' }]);
  card.rows = card.rows.filter((r) => r.id !== dropRow);
  return buildScorecard({ ...card, createdAt: new Date(`2026-11-21T${hour}:00:00Z`) });
}

describe('coverage against the previous comparable run', () => {
  it('falls on a missing row or more N/A rows, and exit 3 ranks below 2 and 1', () => {
    const before = noLose('20261121T100000Z-aaaaaaa', 10);
    const same = coverageAgainst(noLose('20261121T110000Z-bbbbbbb', 11), before);
    expect(same).toEqual({ previousRunId: before.runId, previousNA: 1, na: 1, missingRows: [], fell: false });
    const missing = coverageAgainst(noLose('20261121T110000Z-bbbbbbb', 11, 'query.term'), before);
    expect(missing.missingRows).toEqual(['query.term']);
    expect(missing.fell).toBe(true);
    const fell = { ...same, fell: true };
    const counts = (lose: number) => ({ ...countVerdicts([]), LOSE: lose });
    expect(exitCodeFor('complete', counts(0), fell)).toBe(3);
    expect(exitCodeFor('complete', counts(1), fell)).toBe(1);
    expect(exitCodeFor('failed', counts(1), fell)).toBe(2);
    expect(exitCodeFor('complete', counts(0), same)).toBe(0);
  });

  it('annotates the card from the history: exit 3, and SCORECARD.md says why', async () => {
    await withHistory(historyPath(out), (conn) => appendRun(conn, noLose('20261121T100000Z-aaaaaaa', 10)));
    const now = noLose('20261121T110000Z-bbbbbbb', 11, 'query.term');
    expect(now.exitCode).toBe(0);
    // Unpublished (not committed): no coverage figure may rest on it.
    const unpublished = structuredClone(now);
    await annotateFromHistory(out, unpublished);
    expect(unpublished.coverage).toBeUndefined();
    await annotateFromHistory(out, now, () => true);
    expect(now.coverage?.fell).toBe(true);
    expect(now.exitCode).toBe(3);
    const md = renderMarkdown(now);
    expect(md).toContain('Exit status 3: no LOSE, but coverage fell against `20261121T100000Z-aaaaaaa`.');
    expect(md).toContain('rows missing since then: `query.term`');
  });

  it('the bench exits 3 when rows that had verdicts turn N/A on the same corpus and scale', async () => {
    const tiny = ['--docs', '2000', '--iterations', '40', '--warmup', '2', '--prewarm', '0', '--rate', '300'];
    const run = async (candidate: FakeEs, baseline: FakeEs) =>
      runCli([
        '--candidate-url',
        candidate.url,
        '--baseline-url',
        baseline.url,
        '--out',
        out,
        '--families',
        'query.term,metric.avg',
        '--max-send-lag-ms',
        '10000',
        ...tiny,
      ]);
    const fast = await startFakeEs({ name: 'fake-a' });
    const slow = await startFakeEs({ name: 'fake-b', delayMs: 30 });
    fakes.push(fast, slow);
    const first = await run(fast, slow);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // Coverage compares with published runs only: commit the first one, as main does.
    const git = (...args: string[]) => execFileSync('git', args, { cwd: out, stdio: 'ignore' });
    git('init', '-q');
    git('add', '--', '*/scorecard.json');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'first run');
    // Now the candidate refuses every search and _count: no LOSE, but all four rows are N/A
    // (memory.rss is N/A in both runs: engines given by URL have no process to read).
    const refusing = await startFakeEs({ name: 'fake-refusing', searchStatus: 400 });
    fakes.push(refusing);
    const second = await run(refusing, slow);
    expect(second.code, second.stdout + second.stderr).toBe(3);
    expect(second.stdout).toMatch(/coverage fell against \S+: N\/A 1 -> 5/);
    const runIds = (await readdir(out)).filter((f) => /^\d{8}T/.test(f)).sort();
    const card = JSON.parse(
      await readFile(join(out, runIds[1] as string, 'scorecard.json'), 'utf8'),
    ) as Scorecard;
    expect(card.exitCode).toBe(3);
    expect(card.coverage).toMatchObject({ previousRunId: runIds[0], previousNA: 1, na: 5, fell: true });
  }, 90_000);
});
