import type { Metadata } from 'next';
import { TableScroll } from '@/components/table-scroll';
import { getRunSummaries, getSets } from '@/lib/data';
import { formatDate } from '@/lib/format';
import { VERDICT_ORDER } from '@/lib/prepare';
import { compareHref, runHref, setHref, setRunsHref } from '@/lib/routes';
import { setLabel } from '@/lib/sets';

export const metadata: Metadata = { title: 'Runs' };

/** Every run, grouped by comparable set (corpus, size, baseline, machine), newest first. */
export default function RunsPage() {
  const summaries = getRunSummaries();
  return (
    <>
      <p className="eyebrow">History</p>
      <h1>Runs</h1>
      <p className="lede">
        Every published run, grouped by what makes runs comparable: corpus, size, row selection, baseline and
        machine. Each set has its own verdict history; a run is compared only with runs of its set.
      </p>
      {getSets().map((set) => {
        const runs = summaries.filter((run) => run.set === set.slug);
        return (
          <section key={set.slug} className="run-set" aria-labelledby={`set-${set.slug}`} data-set={set.slug}>
            <h2 id={`set-${set.slug}`} className="section-title">
              {setLabel(set.set)}
            </h2>
            <p className="run-links">
              <a href={setHref(set.slug)}>Latest run of this set</a>
              <a href={setRunsHref(set.slug)}>Verdicts over time</a>
              <span className="muted">{set.set.machine}</span>
            </p>
            <TableScroll label={`Runs of ${setLabel(set.set)}`}>
              <table className="score-table runs-table cards">
                <caption>Every run of this set, newest first, with its verdict counts.</caption>
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
                          <a href={compareHref(run.previousRunId, run.runId)}>vs previous run</a>
                        ) : (
                          <span className="muted">first run of the set</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
        );
      })}
    </>
  );
}
