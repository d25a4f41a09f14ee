import { describe, expect, it } from 'vitest';
import {
  type CompareRow,
  changeInterval,
  changeInWords,
  compareRunFromModel,
  diffRuns,
} from '../lib/compare-data';
import type { RowResult, Scorecard } from '../lib/definitions';
import { runModel } from '../lib/run-model';
import { compactHeatmap, consecutivePairs, summarizeRuns, verdictHeatmap } from '../lib/runs';
import { runSets } from '../lib/sets';
import { loadFixtures } from './load-fixtures';

const all = loadFixtures();
// The 200k series (the newest run's set); a 2M, a 20M and a 200k run with kNN sit between its runs
// and belong to other sets.
const sets = runSets(all);
const cards = sets[0]?.runs ?? [];
const big = all.find((card) => card.manifest.corpus.docs === 2_000_000) as Scorecard;
const [oldest, middle, newest] = [...cards].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
if (!oldest || !middle || !newest || !big) throw new Error('the fixtures need three 200k runs and a 2M run');
const compareRun = (card: Scorecard) => {
  const [set] = runSets([card]);
  if (!set) throw new Error('no set');
  return compareRunFromModel(runModel(card, { set, calibrations: [], downloads: [] }));
};
const compareScorecards = (a: Scorecard, b: Scorecard) => diffRuns(compareRun(a), compareRun(b));

function withRows(card: Scorecard, rows: RowResult[]): Scorecard {
  return { ...card, rows };
}

describe('summarizeRuns', () => {
  it('lists runs newest first, each linked to the previous run of its own set, counts from the rows', () => {
    const runs = summarizeRuns(all);
    expect(runs.map((run) => run.runId)[0]).toBe(newest.runId);
    expect(runs.at(-1)?.runId).toBe(oldest.runId);
    // The runs of other sets between them are not a 200k run's "previous run", and have none themselves.
    expect(runs.map((run) => run.previousRunId)).toEqual([
      middle.runId,
      oldest.runId,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(runs.at(-1)?.counts).toEqual(oldest.counts);
    expect(new Set(runs.map((run) => run.set)).size).toBe(4);
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
        if (row.id === match.id) return { ...row, verdict: match.verdict === 'WIN' ? 'TIE' : 'WIN' };
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

describe('a comparison judges its changes against the runs’ noise', () => {
  const row = (ratio: number, ci: [number, number]): CompareRow => ({
    id: 'query.term',
    title: 'term',
    group: 'query',
    verdict: 'WIN',
    ratio,
    ci,
    level: 0.99,
    df: 4,
    read: true,
    reason: '',
  });

  it('a change whose interval, from both runs’ intervals, excludes 1 is beyond noise; one that does not is within', () => {
    const beyond = changeInterval(row(2, [1.8, 2.2]), row(1, [0.9, 1.1]));
    expect(beyond?.change).toBeCloseTo(0.5);
    expect(beyond?.high).toBeLessThan(1);
    const within = changeInterval(row(2, [1, 4]), row(1.5, [0.75, 3]));
    expect(within?.low).toBeLessThan(1);
    expect(within?.high).toBeGreaterThan(1);
    // Without an interval on either side, no judgement is made.
    expect(changeInterval({ ...row(2, [1, 3]), ci: undefined }, row(1, [0.9, 1.1]))).toBeUndefined();
  });

  it('marks each flip and sums the read rows into one overall line', () => {
    const base = newest.rows;
    const after = withRows(
      newest,
      base.map((r) => {
        // A real drop (a narrow interval far below the old ratio) and a flip inside the noise.
        if (r.id === 'query.term') return { ...r, verdict: 'LOSE', ratio: 0.5, ci: [0.47, 0.53] };
        if (r.id === 'query.range') return { ...r, verdict: 'WIN', ratio: 1.06, ci: [1.01, 1.11] };
        return r;
      }),
    );
    const comparison = compareScorecards(withRows(middle, base), after);
    const byId = Object.fromEntries(comparison.changes.map((change) => [change.rowId, change]));
    expect(byId['query.term']?.kind).toBe('flipped');
    expect(byId['query.term']?.noise).toBe('beyond');
    expect(byId['query.range']?.kind).toBe('flipped');
    expect(byId['query.range']?.noise).toBe('within');
    // Rows without a ratio in a run, or without an interval, are counted apart.
    expect(byId['query.phrase']?.noise).toBe('not-comparable');
    expect(byId['ingest.2-clients']?.noise).toBe('no-interval');
    const { overall } = comparison;
    expect(overall.regressed).toBe(1);
    expect(overall.improved).toBe(0);
    const readRows = base.filter(
      (r) => r.ratio !== undefined && ['query', 'metric', 'bucket', 'pipeline', 'feature'].includes(r.group),
    );
    expect(overall.geomean?.rows).toBe(readRows.length);
    const term = base.find((r) => r.id === 'query.term')?.ratio as number;
    const range = base.find((r) => r.id === 'query.range')?.ratio as number;
    const expected = Math.exp((Math.log(0.5 / term) + Math.log(1.06 / range)) / readRows.length);
    expect(overall.geomean?.change).toBeCloseTo(expected, 10);
    expect(overall.geomean?.low).toBeLessThan(overall.geomean?.change as number);
    expect(changeInWords(0.9)).toBe('degrades by 10%');
    expect(changeInWords(1.032)).toBe('improves by 3.2%');
  });
});
