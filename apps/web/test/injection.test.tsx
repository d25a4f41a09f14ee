/**
 * Scorecard text is data: row titles, families, reasons, mismatch summaries, error messages and
 * engine names are rendered by React (escaped) and never reach the charts except through vega's
 * own escaping. Rendered on the server exactly as the static build renders them.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConformancePanel } from '../components/conformance-panel';
import { MismatchDetails } from '../components/mismatch-details';
import { MarkerList } from '../components/row-markers';
import { RunFacts } from '../components/run-facts';
import { NotWins, RunHeadline } from '../components/run-headline';
import { ScoreTable } from '../components/score-table';
import { SideStats } from '../components/side-stats';
import { rowCharts, setCharts } from '../lib/chart-files';
import { renderSpecSvg } from '../lib/charts';
import type { Scorecard, Waiver } from '../lib/definitions';
import { ecdfData, ecdfSpec } from '../lib/latency-charts';
import { rowMarkers } from '../lib/markers';
import { groupRows } from '../lib/prepare';
import { runModel } from '../lib/run-model';
import { runSets } from '../lib/sets';
import { tableSections } from '../lib/table-rows';
import { applyView, DEFAULT_VIEW } from '../lib/table-view';
import { loadFixtures } from './load-fixtures';

const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const HOSTILE = `${SCRIPT}${IMG}`;

/** The newest fixture with every text field the site shows made hostile. */
function hostileCard(): Scorecard {
  const newest = loadFixtures()
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .at(-1);
  const card = structuredClone(newest) as Scorecard;
  card.manifest.candidate.product = `everycell ${HOSTILE}`;
  card.manifest.baseline.product = `OpenSearch ${HOSTILE}`;
  card.manifest.machine.cpuModel = `CPU ${HOSTILE}`;
  card.manifest.settings.families = HOSTILE;
  card.status = 'partial';
  card.failure = HOSTILE;
  for (const row of card.rows) {
    row.title = `${row.title} ${HOSTILE}`;
    row.family = `${row.family}${HOSTILE}`;
    row.reason = `${row.reason} ${HOSTILE}`;
    if (row.mismatch) {
      row.mismatch.summary = HOSTILE;
      row.mismatch.candidate = { note: HOSTILE };
    }
    if (!row.candidate.supported) row.candidate.error = HOSTILE;
    for (const difference of card.conformance?.differences ?? []) difference.reason = HOSTILE;
    if (row.baseline.saturated || row.candidate.saturated) {
      row.candidate.saturationReason = HOSTILE;
      row.baseline.saturationReason = HOSTILE;
    }
  }
  return card;
}

/** No live element from the payload: only its escaped text. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  // "onerror" may appear in escaped text or inside a quoted attribute value, never as an attribute.
  expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\sonerror/i);
}

describe('no HTML injection from scorecard text', () => {
  it('the run headline, facts and table render hostile names and reasons as text', () => {
    const card = hostileCard();
    const [set] = runSets([card]);
    if (!set) throw new Error('no set');
    const model = runModel(card, { set, calibrations: [], downloads: ['scorecard.json'] });
    const html = renderToStaticMarkup(
      <>
        <RunHeadline model={model} label="Latest run" />
        <NotWins model={model} />
        <RunFacts model={model} />
        <ConformancePanel suites={model.conformance} empty="none" />
        <ScoreTable
          bodies={applyView(tableSections(groupRows(card.rows), card.manifest), DEFAULT_VIEW)}
          caption="Every row."
          set="s"
          showCpu
        />
      </>,
    );
    expectInert(html);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('the row drill-down (mismatch, markers, numbers) renders them as text', () => {
    const card = hostileCard();
    const mismatched = card.rows.find((row) => row.mismatch);
    const saturated = card.rows.find((row) => row.candidate.saturated);
    if (!mismatched?.mismatch || !saturated) throw new Error('fixtures lack a mismatch or a saturated row');
    const html = renderToStaticMarkup(
      <>
        <MismatchDetails
          mismatch={{
            summary: mismatched.mismatch.summary,
            candidate: JSON.stringify(mismatched.mismatch.candidate),
            baseline: JSON.stringify(mismatched.mismatch.baseline),
          }}
        />
        <MarkerList
          markers={rowMarkers(saturated, {
            maxSendLagP99Ms: 10,
            waiver: {
              waiver: {
                row: saturated.id,
                kind: 'lose',
                reason: HOSTILE,
                who: HOSTILE,
                expires: '2026-12-31',
              } as Waiver,
              active: true,
            },
          })}
        />
        <SideStats row={saturated} />
      </>,
    );
    expectInert(html);
  });

  it('vega escapes chart text: a hostile description never becomes markup in the SVG', async () => {
    const card = hostileCard();
    const row = card.rows.find((candidate) => candidate.candidate.ecdf) as Scorecard['rows'][number];
    // Every chart the site draws for this run and this row, with the hostile titles in place.
    const charts = [
      ...setCharts(card),
      ...rowCharts(row, [
        {
          runId: 'r1',
          createdAt: card.createdAt,
          gitRevision: card.manifest.gitRevision,
          verdict: 'WIN',
          ratio: 1.2,
          ciLow: 1.1,
          ciHigh: 1.3,
          candidate: 1,
          baseline: 2,
          reason: HOSTILE,
        },
      ]),
    ];
    const drawn = await Promise.all(charts.map((chart) => renderSpecSvg(chart.spec('narrow'))));
    const ecdf = await renderSpecSvg(ecdfSpec(ecdfData(row), 'wide', `Latency of ${row.title}`));
    // Text that does reach a chart (a label, a legend, a tooltip) goes through vega's escaping.
    const labelled = await renderSpecSvg({
      data: { values: [{ label: HOSTILE, x: 1 }] },
      mark: 'text',
      encoding: { text: { field: 'label' }, x: { field: 'x', type: 'quantitative', title: HOSTILE } },
    });
    for (const svg of [...drawn, ecdf, labelled]) {
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).not.toMatch(/<script/i);
      expect(svg).not.toMatch(/<img/i);
    }
    expect(labelled).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
