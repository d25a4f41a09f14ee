import { describe, expect, it } from 'vitest';
import { compareRows, diffRuns } from '../lib/compare-data';
import type { RowResult, Scorecard } from '../lib/definitions';
import { compactHeatmap, consecutivePairs, summarizeRuns, verdictHeatmap } from '../lib/runs';
import { loadFixtures } from './load-fixtures';

const all = loadFixtures();
// The 200k series; one 2M run sits between its first two runs and belongs to another set.
const cards = all.filter((card) => card.manifest.corpus.docs === 200_000);
const big = all.find((card) => card.manifest.corpus.docs === 2_000_000) as Scorecard;
const [oldest, middle, newest] = [...cards].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
if (!oldest || !middle || !newest || !big) throw new Error('the fixtures need three 200k runs and a 2M run');
const compareScorecards = (a: Scorecard, b: Scorecard) => diffRuns(compareRows(a, 's'), compareRows(b, 's'));

function withRows(card: Scorecard, rows: RowResult[]): Scorecard {
  return { ...card, rows };
}

describe('summarizeRuns', () => {
  it('lists runs newest first, each linked to the previous run of its own set, counts from the rows', () => {
    const runs = summarizeRuns(all);
    expect(runs.map((run) => run.runId)).toEqual([newest.runId, middle.runId, big.runId, oldest.runId]);
    // The 2M run between them is not the 200k run's "previous run", and has none itself.
    expect(runs.map((run) => run.previousRunId)).toEqual([middle.runId, oldest.runId, undefined, undefined]);
    expect(runs[3]?.counts).toEqual(oldest.counts);
    expect(new Set(runs.map((run) => run.set)).size).toBe(2);
  });
});

describe('consecutivePairs', () => {
  it('pairs each run with the one before it, and has none for a single run', () => {
    expect(consecutivePairs(cards).map((pair) => [pair.before.runId, pair.after.runId])).toEqual([
      [oldest.runId, middle.runId],
      [middle.runId, newest.runId],
    ]);
    expect(consecutivePairs([newest])).toEqual([]);
  });
});

describe('verdictHeatmap', () => {
  const heatmap = verdictHeatmap(cards);
  const cellsOf = (rowId: string) =>
    heatmap.sections.flatMap((section) => section.rows).find((row) => row.rowId === rowId)?.cells;

  it('has a cell per run, oldest first, absent where the run lacks the row', () => {
    expect(heatmap.runs.map((run) => run.runId)).toEqual([oldest.runId, middle.runId, newest.runId]);
    expect(cellsOf('metric.avg')?.map((cell) => cell.verdict)).toEqual([undefined, 'WIN', 'WIN']);
  });

  it('marks each change against the previous measured verdict', () => {
    // query.range goes TIE -> WIN -> TIE in the fixtures.
    expect(cellsOf('query.range')?.map((cell) => cell.changedFrom)).toEqual([undefined, 'TIE', 'WIN']);
    const range = heatmap.sections
      .flatMap((section) => section.rows)
      .find((row) => row.rowId === 'query.range');
    expect(range?.changes).toBe(2);
    expect(cellsOf('query.bool')?.some((cell) => cell.changedFrom)).toBe(false);
  });

  it('travels to the browser as one character per cell', () => {
    const compact = compactHeatmap(heatmap);
    const range = compact.sections.flatMap((section) => section.rows).find((row) => row.id === 'query.range');
    expect(range?.cells).toBe('TWT');
    const avg = compact.sections.flatMap((section) => section.rows).find((row) => row.id === 'metric.avg');
    expect(avg?.cells).toBe('.WW');
    expect(compact.runs.map((run) => run.commit)).toEqual(
      cards.map((card) => card.manifest.gitRevision.slice(0, 7)),
    );
  });

  it('keeps only the newest runs under a limit and says how many it left out', () => {
    const limited = verdictHeatmap(cards, 2);
    expect(limited.runs.map((run) => run.runId)).toEqual([middle.runId, newest.runId]);
    expect(limited.omitted).toBe(1);
  });
});

describe('compareScorecards', () => {
  it('puts flipped rows first, new LOSEs before other flips', () => {
    const base = newest.rows;
    const term = base.find((row) => row.id === 'query.term') as RowResult;
    const match = base.find((row) => row.id === 'query.match') as RowResult;
    const before = withRows(middle, base);
    const after = withRows(
      newest,
      base.map((row) => {
        if (row.id === term.id) return { ...row, verdict: 'LOSE', ratio: 0.5 };
        if (row.id === match.id) return { ...row, verdict: 'WIN' };
        return row;
      }),
    );
    const comparison = compareScorecards(before, after);
    expect(comparison.changes.slice(0, 2).map((change) => [change.rowId, change.kind])).toEqual([
      ['query.term', 'flipped'],
      ['query.match', 'flipped'],
    ]);
    expect(comparison.counts).toEqual({ flipped: 2, added: 0, removed: 0, same: base.length - 2 });
    const termChange = comparison.changes[0];
    expect(termChange?.ratioChange).toBeCloseTo(0.5 / (term.ratio as number));
  });

  it('lists rows only one run has as added or removed, after the flips', () => {
    const comparison = compareScorecards(oldest, middle);
    const kinds = Object.fromEntries(comparison.changes.map((change) => [change.rowId, change.kind]));
    expect(kinds['metric.avg']).toBe('added');
    expect(kinds['ingest.4-clients']).toBe('added');
    expect(kinds['query.match']).toBe('flipped');
    const reverse = compareScorecards(middle, oldest);
    expect(reverse.changes.find((change) => change.rowId === 'metric.avg')?.kind).toBe('removed');
    const order = comparison.changes.map((change) => change.kind);
    expect(order).toEqual(
      [...order].sort(
        (a, b) =>
          ['flipped', 'added', 'removed', 'same'].indexOf(a) -
          ['flipped', 'added', 'removed', 'same'].indexOf(b),
      ),
    );
  });
});
