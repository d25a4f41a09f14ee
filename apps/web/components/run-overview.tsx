import type { ReactNode } from 'react';
import type { RunModel } from '@/lib/definitions';
import { groupBy } from '@/lib/prepare';
import {
  compareAnyHref,
  lineHref,
  runHref,
  runsHref,
  setHref,
  setRunsHref,
  setThroughputHref,
} from '@/lib/routes';
import { ConformancePanel } from './conformance-panel';
import { CostCurve } from './cost-curve';
import { Frozen } from './frozen';
import { OverviewGrid } from './overview-grid';
import { Reproduce } from './reproduce';
import { RunFacts } from './run-facts';
import { Downloads, HeadlineNumbers, NotWins, RunHeadline } from './run-headline';
import { ScoreTable } from './score-table';
import { TableControls } from './table-controls';

const TABLE_ID = 'rows-table';

/** Server HTML kept without hydrating on static pages; rendered as it is in the browser's run page. */
function Part({ frozen, children }: { frozen: boolean; children: ReactNode }) {
  return frozen ? <Frozen>{children}</Frozen> : children;
}

/**
 * One run as the home page, a set's page and the run's own page show it, from its model: the
 * answer first (who wins, by how much, on what, where), every row at a glance, then the pickers
 * and the detail. Renders on the server for static pages (`frozen`: the browser keeps that HTML
 * without hydrating it, components/frozen.tsx) and in the browser for a run's page, so it imports
 * nothing that reads files. Only the table's controls are live.
 */
export function RunOverview({
  model,
  label,
  caption,
  picker,
  ratios,
  frozen = false,
}: {
  model: RunModel;
  label: string;
  caption: string;
  /** The comparable sets to choose from (static pages only). */
  picker?: ReactNode;
  /** The every-row ratio chart (static pages only: its file is drawn at build time). */
  ratios?: ReactNode;
  frozen?: boolean;
}) {
  const { set, previous, next } = model;
  const sections = groupBy(model.rows);
  return (
    <>
      <Part frozen={frozen}>
        <RunHeadline model={model} label={label} />
        <OverviewGrid rows={model.rows} set={set.slug} />
        {picker}
        <HeadlineNumbers model={model} />
        <NotWins model={model} />
        {ratios}
        <Downloads runId={model.runId} files={model.downloads} />
        <nav className="run-links" aria-label="This run">
          <a href={setHref(set.slug)}>Latest run of this set</a>
          <a href={setRunsHref(set.slug)}>Runs of this set ({set.runs})</a>
          {previous ? (
            <a href={compareAnyHref(previous.runId, model.runId)}>
              Compare with the previous run of this set
            </a>
          ) : null}
          {previous ? <a href={runHref(previous.runId)}>Previous run</a> : null}
          {next ? <a href={runHref(next.runId)}>Next run</a> : null}
          {model.line ? <a href={lineHref(model.line.slug)}>Across sizes: {model.line.name}</a> : null}
          <a href={setThroughputHref(set.slug)}>Throughput of this set</a>
          <a href={runsHref()}>All runs</a>
        </nav>
        <h2 className="section-title" id="rows">
          Rows
        </h2>
      </Part>
      <TableControls
        tableId={TABLE_ID}
        groups={sections.map(({ group, label: name }) => ({ group, label: name }))}
        total={model.rows.length}
      />
      <Part frozen={frozen}>
        <ScoreTable
          id={TABLE_ID}
          bodies={sections.map((section) => ({
            key: section.group,
            label: section.label,
            rows: section.rows,
          }))}
          caption={caption}
          levels={model.levels}
          set={set.slug}
          showCpu={model.rows.some((row) => row.cpu !== undefined)}
        />
        <CostCurve curve={model.costCurve} />
        <h2 className="section-title">Where and how it was measured</h2>
        <RunFacts model={model} />
        <ConformancePanel
          suites={model.conformance}
          restSuite={model.restSuite}
          empty="This run recorded no conformance result: its harness predates the conformance summary on the card."
        />
        <Reproduce reproduce={model.reproduce} />
      </Part>
    </>
  );
}
