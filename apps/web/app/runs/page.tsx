import type { Metadata } from 'next';
import { TableScroll } from '@/components/table-scroll';
import { VerdictHeatmap } from '@/components/verdict-heatmap';
import { getHeatmap, getRunSummaries } from '@/lib/data';
import { formatDate } from '@/lib/format';
import { VERDICT_ORDER } from '@/lib/prepare';
import { compareHref, runHref } from '@/lib/routes';

export const metadata: Metadata = { title: 'Runs' };

const integer = new Intl.NumberFormat('en-US');

export default function RunsPage() {
  const runs = getRunSummaries();
  const heatmap = getHeatmap();
  return (
    <>
      <p className="eyebrow">History</p>
      <h1>Runs</h1>
      <p className="lede">
        Every published run, newest first. Open a run for its full table, or compare it with the run before
        it.
      </p>
      <TableScroll label="Runs">
        <table className="score-table runs-table">
          <caption>Every run, newest first, with its verdict counts.</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Git</th>
              <th scope="col">Engines</th>
              <th scope="col" className="num">
                Docs
              </th>
              {VERDICT_ORDER.map((verdict) => (
                <th scope="col" className="num" key={verdict}>
                  {verdict}
                </th>
              ))}
              <th scope="col">Gate</th>
              <th scope="col">Compare</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.runId} data-run-id={run.runId}>
                <th scope="row" className="run-cell">
                  <a href={runHref(run.runId)}>
                    <time dateTime={run.createdAt}>{formatDate(run.createdAt)}</time>
                  </a>
                  <code className="row-id">{run.runId}</code>
                </th>
                <td>
                  <code title={run.gitRevision}>{run.gitRevision.slice(0, 7)}</code>
                </td>
                <td className="engines-cell">
                  {run.candidate}
                  <span className="muted"> vs {run.baseline}</span>
                </td>
                <td className="num">
                  {integer.format(run.docs)}
                  <span className="row-id">{run.corpus}</span>
                </td>
                {VERDICT_ORDER.map((verdict) => (
                  <td
                    className={`num count-cell${run.counts[verdict] > 0 && verdict === 'LOSE' ? ' has-lose' : ''}`}
                    key={verdict}
                  >
                    {run.counts[verdict]}
                  </td>
                ))}
                <td>
                  {run.counts.LOSE > 0 || run.status === 'failed' ? (
                    <span className="gate gate-fail">fails</span>
                  ) : (
                    <span className="gate gate-pass">passes</span>
                  )}
                  {run.status === 'complete' ? null : <span className="run-status"> {run.status}</span>}
                </td>
                <td>
                  {run.previousRunId ? (
                    <a href={compareHref(run.previousRunId, run.runId)}>vs previous run</a>
                  ) : (
                    <span className="muted">first run</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h2 className="section-title">Verdicts over time</h2>
      <VerdictHeatmap heatmap={heatmap} />
    </>
  );
}
