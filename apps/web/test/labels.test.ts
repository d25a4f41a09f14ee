import { describe, expect, it } from 'vitest';
import { runConformance } from '../lib/conformance';
import type { Scorecard } from '../lib/definitions';
import { claim } from '../lib/headline';
import { intervalLevel, levelsInWords, levelText } from '../lib/interval';
import { contrast, GRID_PALETTE, overviewGrid, shadeOf } from '../lib/overview-grid';
import { siteIndexBuilder, slimScorecard } from '../lib/site-index';
import { tQuantile } from '../lib/stats';
import { tableRow } from '../lib/table-rows';
import { p99Ratio, tailDisagreement } from '../lib/tails';
import { tieExplanation } from '../lib/tie';
import { loadFixtures } from './load-fixtures';
import { loadRealScorecards } from './load-real';

const cards = loadFixtures().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const newest = cards.at(-1) as Scorecard;
const oldest = cards[0] as Scorecard;
const rowOf = (card: Scorecard, id: string) => {
  const row = card.rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no ${id}`);
  return row;
};

describe('the interval label comes from the run', () => {
  it('uses the run’s --confidence for rows over forks, 95% for the bootstraps, nothing without an interval', () => {
    const settings = newest.manifest.settings;
    expect(intervalLevel(rowOf(newest, 'query.term'), settings)).toBe(0.99);
    expect(intervalLevel(rowOf(newest, 'ingest.1-client'), settings)).toBe(0.95);
    expect(intervalLevel(rowOf(newest, 'ingest.2-clients'), settings)).toBeUndefined();
    // The ingest row over paired rounds (cards since its round ratios) is at the run's level.
    const overRounds = { ...rowOf(newest, 'ingest.1-client'), roundRatios: [3.1, 3.4] };
    expect(intervalLevel(overRounds, settings)).toBe(0.99);
    // A card from before the setting: 95% throughout.
    expect(intervalLevel(rowOf(oldest, 'query.term'), oldest.manifest.settings)).toBe(0.95);
    expect(levelText(0.995)).toBe('99.5%');
  });

  it('writes the level into every table cell and caption that shows an interval', () => {
    const term = tableRow(rowOf(newest, 'query.term'), newest.manifest);
    expect(term.ciText).toMatch(/^99% CI \d/);
    expect(tableRow(rowOf(newest, 'ingest.1-client'), newest.manifest).ciText).toMatch(/^95% CI /);
    expect(tableRow(rowOf(newest, 'ingest.2-clients'), newest.manifest).ciText).toBe('no interval');
    const rows = newest.rows.map((row) => tableRow(row, newest.manifest));
    expect(levelsInWords(rows)).toMatch(/^99% \(\d+ rows\) and 95% \(ingest\.1-client\)$/);
    expect(levelsInWords(rows, false)).toBe('99% or 95%');
  });
});

describe('tails and ties', () => {
  it('marks a WIN whose p99 is slower and a LOSE whose p99 is faster, beyond the tie margin only', () => {
    const term = rowOf(newest, 'query.term');
    expect(p99Ratio(term)).toBeCloseTo((term.baseline.p99 as number) / (term.candidate.p99 as number));
    expect(tailDisagreement(term, 0.05)).toBe('p99-worse');
    expect(tailDisagreement(rowOf(newest, 'query.bool'), 0.05)).toBe('p99-better');
    expect(tailDisagreement(rowOf(newest, 'metric.avg'), 0.05)).toBeUndefined();
    // Within the margin the two quantiles are not said to disagree.
    expect(
      tailDisagreement(
        { ...term, baseline: { ...term.baseline, p99: (term.candidate.p99 as number) * 0.97 } },
        0.05,
      ),
    ).toBeUndefined();
    // No p99 ratio for rows judged on the p99 itself, or for N/A rows.
    expect(p99Ratio({ ...term, group: 'mixed' })).toBeUndefined();
    expect(p99Ratio(rowOf(newest, 'query.phrase'))).toBeUndefined();
  });

  it('says why a TIE with a large ratio is one: its interval reaches below 1', () => {
    const fuzzy = rowOf(newest, 'query.fuzzy');
    expect(fuzzy.verdict).toBe('TIE');
    const why = tieExplanation(fuzzy, newest.manifest.settings);
    expect(why?.kind).toBe('interval-reaches-one');
    expect(why?.text).toBe('its 99% interval 0.64–5.78 reaches below 1');
    expect(tableRow(fuzzy, newest.manifest).tieShort).toBe('interval reaches 1');
    expect(tieExplanation(rowOf(newest, 'ingest.8-clients'), newest.manifest.settings)?.kind).toBe(
      'single-measurement',
    );
    expect(tieExplanation(rowOf(newest, 'query.term'), newest.manifest.settings)).toBeUndefined();
  });

  it('leads with who wins and by how much', () => {
    expect(claim('everycell', 'OpenSearch 2.19.1', 2.917)).toBe(
      'everycell is 2.92× faster than OpenSearch 2.19.1',
    );
    expect(claim('everycell', 'OpenSearch 2.19.1', 0.5)).toBe(
      'everycell is 2.00× slower than OpenSearch 2.19.1',
    );
    expect(claim('everycell', 'OpenSearch 2.19.1', undefined)).toBe('everycell against OpenSearch 2.19.1');
  });
});

describe('the overview grid', () => {
  it('has one cell per row, grouped, each with an accessible name that says its verdict and ratio', () => {
    const groups = overviewGrid(newest.rows);
    expect(
      groups
        .flatMap((group) => group.cells)
        .map((cell) => cell.id)
        .sort(),
    ).toEqual(newest.rows.map((row) => row.id).sort());
    const term = groups.flatMap((group) => group.cells).find((cell) => cell.id === 'query.term');
    expect(term?.label).toBe(
      `term on a keyword field (query.term): WIN, ratio ${rowOf(newest, 'query.term').ratio?.toFixed(2)}×`,
    );
  });

  it('shades by distance from 1, the same either way, and every shade keeps text legible (WCAG AA)', () => {
    expect([1, 1.4, 1.6, 3, 5, 20].map(shadeOf)).toEqual([0, 0, 1, 2, 3, 4]);
    expect(shadeOf(1 / 3)).toBe(shadeOf(3));
    expect(shadeOf(undefined)).toBe(0);
    for (const [verdict, shades] of Object.entries(GRID_PALETTE)) {
      for (const { bg, fg } of shades)
        expect(contrast(bg, fg), `${verdict} ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('conformance per run', () => {
  it('is the run’s own summary, or none', () => {
    const twenty = cards.find((card) => card.manifest.corpus.docs === 20_000_000) as Scorecard;
    expect(runConformance(twenty)[0]?.candidatePass).toBe(380);
    expect(runConformance(newest)[0]?.candidatePass).toBe(398);
    expect(runConformance(newest)[0]?.differences).toHaveLength(3);
    expect(runConformance(oldest)).toEqual([]);
  });
});

describe('Student t quantiles (the compare page’s intervals)', () => {
  it('match the tables', () => {
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.7764, 3);
    expect(tQuantile(0.995, 4)).toBeCloseTo(4.6041, 3);
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.2281, 3);
    expect(tQuantile(0.975, Number.POSITIVE_INFINITY)).toBeCloseTo(1.96, 2);
  });
});

describe('the site index', () => {
  it('keeps what a run page and a trend read, and sheds most of a real card', () => {
    // The newest whole-matrix card: a card of a few rows (`--families`) is mostly its manifest.
    const real =
      loadRealScorecards()
        .filter((card) => String(card.manifest.settings.families ?? '*') === '*')
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .at(-1) ?? newest;
    const slim = slimScorecard(real);
    expect(JSON.stringify(slim).length).toBeLessThan(JSON.stringify(real).length * 0.5);
    const row = slim.rows.find(
      (candidate) => candidate.candidate.p50 !== undefined,
    ) as Scorecard['rows'][number];
    expect(row.candidate.hdr).toBeUndefined();
    expect(row.candidate.ecdf).toBeUndefined();
    expect(row.request).toBeUndefined();
    // What the run page shows survives.
    expect(tableRow(row, slim.manifest)).toEqual(
      tableRow(real.rows.find((r) => r.id === row.id) as typeof row, real.manifest),
    );
  });
});

describe('the site index builder', () => {
  it('keeps each set’s newest run whole, and a row the newest run lacks whole where it was last measured', () => {
    const older = { ...newest, runId: 'older', createdAt: '2026-11-20T00:00:00.000Z' };
    const newer = { ...newest, runId: 'newer', rows: newest.rows.filter((row) => row.id !== 'query.term') };
    const builder = siteIndexBuilder(() => 'one set');
    builder.add(older);
    builder.add(newer);
    const [first, second] = builder.build();
    expect(second).toBe(newer);
    const term = first?.rows.find((row) => row.id === 'query.term');
    expect(term?.candidate.ecdf).toBeDefined();
    const other = first?.rows.find((row) => row.id === 'bucket.terms');
    expect(other?.candidate.ecdf).toBeUndefined();
  });
});
