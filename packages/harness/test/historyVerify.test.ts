import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotateFromHistory } from '../src/history/annotate.js';
import { appendRun, historyPath, withHistory } from '../src/history/db.js';
import { verifyHistory } from '../src/history/verify.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { writeScorecard } from '../src/scorecard/write.js';
import { sampleCard } from './helpers/card.js';

let out: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: out, stdio: 'ignore' });

beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'everycell-verify-'));
  git('init', '-q');
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

/** Publish a run the way main does: annotate from the history, write, append, commit. */
async function publish(card: Scorecard): Promise<void> {
  await annotateFromHistory(out, card);
  await writeScorecard(out, card);
  await withHistory(historyPath(out), (conn) => appendRun(conn, card));
  git('add', '--', '*/scorecard.json');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', card.runId);
}

const run = (hour: number, verdict: 'WIN' | 'LOSE', commit = 'abcdef1234567890') => {
  const card = sampleCard(`20261122T${String(hour).padStart(2, '0')}0000Z-abcdef1`);
  card.createdAt = `2026-11-22T${String(hour).padStart(2, '0')}:00:00.000Z`;
  card.manifest.gitRevision = commit;
  const row = card.rows.find((r) => r.id === 'query.term');
  if (row) row.verdict = verdict;
  return card;
};

describe('history verify: published figures reproduce from the committed files', () => {
  it('flaky marks (repeat runs of one commit) and coverage recompute the same; a tampered card is named', async () => {
    await publish(run(1, 'WIN'));
    await publish(run(2, 'LOSE'));
    // Another commit's run: not a repeat, so no flip is counted against it.
    await publish(run(3, 'WIN', '0123456789abcdef'));
    const last = run(4, 'WIN');
    await publish(last);
    expect(last.rows.find((r) => r.id === 'query.term')?.flaky).toEqual({ flips: 2, runs: 3 });
    expect(last.coverage?.previousRunId).toBe(run(3, 'WIN').runId);
    expect(await verifyHistory(out)).toEqual({ checked: 4, older: 0, problems: [] });

    // An unpublished run in the history changes nothing that was published.
    await withHistory(historyPath(out), (conn) => appendRun(conn, run(5, 'LOSE')));
    expect((await verifyHistory(out)).problems).toEqual([]);

    const tampered = structuredClone(last);
    tampered.rows.forEach((r) => {
      delete r.flaky;
    });
    await writeFile(join(out, last.runId, 'scorecard.json'), JSON.stringify(tampered));
    const { problems } = await verifyHistory(out);
    expect(problems).toEqual([
      `${last.runId} query.term: flaky published null, recomputed {"flips":2,"runs":3}`,
    ]);
  });
});
