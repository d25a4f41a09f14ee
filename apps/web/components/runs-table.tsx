import { formatDate } from '@/lib/format';
import { VERDICT_ORDER } from '@/lib/prepare';
import { compareAnyHref, runHref } from '@/lib/routes';
import type { RunSummary } from '@/lib/runs';
import { TableScroll } from './table-scroll';

/** Runs of one comparable set, newest first, with their verdict counts, gate and comparison link. */
export function RunsTable({
  runs,
  label,
  caption,
}: {
  runs: readonly RunSummary[];
  label: string;
  caption: string;
}) {
  return (
    <TableScroll label={label}>
      <table className="score-table runs-table cards">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
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
              <th scope="row" className="row-name">
                <a href={runHref(run.runId)}>
                  <time dateTime={run.createdAt}>{formatDate(run.createdAt)}</time>
                </a>
                <span className="row-id">
                  commit <code>{run.gitRevision.slice(0, 7)}</code> · {run.candidate}
                </span>
              </th>
              {VERDICT_ORDER.map((verdict) => (
                <td
                  className={`num count-cell${run.counts[verdict] > 0 && verdict === 'LOSE' ? ' has-lose' : ''}`}
                  key={verdict}
                  data-label={verdict}
                >
                  {run.counts[verdict]}
                </td>
              ))}
              <td data-label="Gate">
                {run.counts.LOSE > 0 || run.status === 'failed' ? (
                  <span className="gate gate-fail">fails</span>
                ) : (
                  <span className="gate gate-pass">passes</span>
                )}
                {run.status === 'complete' ? null : <span className="run-status"> {run.status}</span>}
              </td>
              <td data-label="Compare">
                {run.previousRunId ? (
                  <a href={compareAnyHref(run.previousRunId, run.runId)}>vs previous run</a>
                ) : (
                  <span className="muted">first run of the set</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
