import { findChart, runCharts } from '@/lib/chart-files';
import { getConformance, getSets, type RunView, runDownloads } from '@/lib/data';
import { compareHref, runHref, runsHref, setRunsHref, setThroughputHref } from '@/lib/routes';
import { tableSections } from '@/lib/table-rows';
import { CostCurve } from './cost-curve';
import { FilterableScoreTable } from './filterable-score-table';
import { RunFacts } from './run-facts';
import { RunHeadline } from './run-headline';
import { SetPicker } from './set-picker';

/** One run as the home page, a set's page and the run's own page show it. */
export function RunOverview({ view, label, caption }: { view: RunView; label: string; caption: string }) {
  const { scorecard, set, previous, next } = view;
  const ratios = findChart(runCharts(scorecard), 'ratios.svg')?.chart;
  return (
    <>
      <SetPicker sets={getSets()} current={set.slug} />
      <RunHeadline
        scorecard={scorecard}
        label={label}
        set={set.slug}
        ratios={ratios}
        conformance={getConformance()}
        downloads={runDownloads(scorecard.runId)}
      />
      <nav className="run-links" aria-label="This run">
        <a href={setRunsHref(set.slug)}>Runs of this set ({set.runs.length})</a>
        {previous ? (
          <a href={compareHref(previous.runId, scorecard.runId)}>Compare with the previous run of this set</a>
        ) : null}
        {previous ? <a href={runHref(previous.runId)}>Previous run</a> : null}
        {next ? <a href={runHref(next.runId)}>Next run</a> : null}
        <a href={setThroughputHref(set.slug)}>Throughput of this set</a>
        <a href={runsHref()}>All runs</a>
      </nav>
      <h2 className="section-title">Rows</h2>
      <FilterableScoreTable sections={tableSections(view.sections)} caption={caption} set={set.slug} />
      <CostCurve scorecard={scorecard} />
      <h2 className="section-title">Where and how it was measured</h2>
      <RunFacts scorecard={scorecard} />
    </>
  );
}
