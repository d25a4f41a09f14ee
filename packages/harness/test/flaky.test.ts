import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotateFromHistory } from '../src/history/annotate.js';
import { appendRun, historyPath, withHistory } from '../src/history/db.js';
import { FLAKY_WINDOW, markFlaky } from '../src/history/flaky.js';
import { buildScorecard } from '../src/scorecard/build.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { Scorecard, Verdict } from '../src/scorecard/schema.js';
import { sampleCard } from './helpers/card.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-flaky-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A sample run at hour `h` whose query.term row has `verdict`; other rows keep the sample's. */
function runAt(h: number, verdict: Verdict, tweak: (c: Scorecard) => void = () => {}): Scorecard {
  const id = `20261120T${String(h).padStart(2, '0')}0000Z-abcdef1`;
  const card = sampleCard(id, [{}, { verdict, reason: `${verdict} on purpose` }]);
  card.createdAt = `2026-11-20T${String(h).padStart(2, '0')}:00:00.000Z`;
  tweak(card);
  return buildScorecard({ ...card, createdAt: new Date(card.createdAt) });
}

describe('flakiness from the history', () => {
  it('counts verdict changes between consecutive runs, skipping runs without the row', () => {
    const rows = runAt(9, 'LOSE').rows;
    markFlaky(rows, [
      { runId: 'c', verdicts: new Map([['query.term', 'TIE' as Verdict]]) },
      { runId: 'b', verdicts: new Map() },
      { runId: 'a', verdicts: new Map([['query.term', 'LOSE' as Verdict]]) },
    ]);
    // LOSE (a) -> TIE (c) -> LOSE (now): two flips over three runs that had the row.
    expect(rows.find((r) => r.id === 'query.term')?.flaky).toEqual({ flips: 2, runs: 3 });
    // ingest.1-client has no past verdicts here: one run, no flip, no mark.
    expect(rows.find((r) => r.id === 'ingest.1-client')?.flaky).toBeUndefined();
  });

  it('reads the last comparable complete runs of the history and marks SCORECARD.md', async () => {
    const path = historyPath(dir);
    const past: Scorecard[] = [
      runAt(1, 'WIN'), // outside the window once 9 newer comparable runs exist
      ...(['LOSE', 'TIE', 'LOSE', 'LOSE', 'LOSE', 'TIE', 'LOSE', 'LOSE', 'LOSE'] as Verdict[]).map((v, i) =>
        runAt(2 + i, v),
      ),
      // Not comparable or not clean: other scale, other commit, a failed run. None may count.
      runAt(12, 'WIN', (c) => {
        c.manifest.corpus.docs = 100_000;
      }),
      // Another commit: its verdict may differ because the code did, which is not flakiness.
      runAt(13, 'WIN', (c) => {
        c.manifest.gitRevision = '0123456789abcdef';
      }),
      runAt(14, 'WIN', (c) => {
        c.status = 'failed';
      }),
    ];
    await withHistory(path, async (conn) => {
      for (const card of past) await appendRun(conn, card);
    });
    const now = runAt(20, 'LOSE');
    expect(await annotateFromHistory(dir, now, () => true)).toBeUndefined();
    const term = now.rows.find((r) => r.id === 'query.term');
    // Window: the 9 runs at hours 2..10 plus this one. LOSE TIE LOSE LOSE LOSE TIE LOSE LOSE LOSE LOSE.
    expect(FLAKY_WINDOW).toBe(9);
    expect(term?.flaky).toEqual({ flips: 4, runs: 10 });
    // The ingest row is WIN in every sample run: stable.
    expect(now.rows.find((r) => r.id === 'ingest.1-client')?.flaky).toBeUndefined();
    expect(renderMarkdown(now)).toContain('| **LOSE** (flaky: 4 flips in 10 runs) |');
  });
});
