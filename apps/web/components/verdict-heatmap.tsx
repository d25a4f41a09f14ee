import { compareHref, rowHref, runHref } from '@/lib/routes';
import type { Heatmap } from '@/lib/runs';
import { TableScroll } from './table-scroll';
import { verdictClass } from './verdict-badge';

const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const SHORT: Record<string, string> = { WIN: 'W', LOSE: 'L', TIE: 'T', 'N/A': 'NA' };

/**
 * Rows x runs of one comparable set, each cell the row's verdict in that run as colour and a
 * letter (W, L, T, NA, spelled out in the caption); a cell whose verdict changed from the row's
 * previous one is outlined, says so in words for screen readers, and links to the comparison of
 * that run with its predecessor. Cells are kept small: the page holds rows x runs of them.
 */
export function VerdictHeatmap({ heatmap, set }: { heatmap: Heatmap; set: string }) {
  const { runs } = heatmap;
  const previousOf = new Map(runs.map((run, index) => [run.runId, runs[index - 1]?.runId]));
  return (
    <TableScroll label="Verdicts over time">
      <table className="heatmap">
        <caption>
          Verdict of every row in each run, oldest run on the left: W win, L lose, T tie, NA not comparable, ·
          not measured. Outlined cells changed verdict since the row&apos;s previous run and link to that
          comparison.
          {heatmap.omitted > 0 ? ` The ${heatmap.omitted} oldest runs of the set are not shown.` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            {runs.map((run) => (
              <th scope="col" key={run.runId} className="heat-run">
                <a href={runHref(run.runId)}>
                  {shortDate.format(new Date(run.createdAt))}
                  <span className="heat-time">{run.gitRevision.slice(0, 7)}</span>
                </a>
              </th>
            ))}
            <th scope="col" className="num">
              Changes
            </th>
          </tr>
        </thead>
        {heatmap.sections.map((section) => (
          <tbody key={section.group}>
            <tr className="group-row">
              <th scope="rowgroup" colSpan={runs.length + 2}>
                {section.label}
              </th>
            </tr>
            {section.rows.map((row) => (
              <tr key={row.rowId} data-row-id={row.rowId}>
                <th scope="row" className="row-name">
                  <a href={rowHref(set, row.rowId)}>{row.rowId}</a>
                </th>
                {row.cells.map((cell) => {
                  if (!cell.verdict) return <td key={cell.runId}>·</td>;
                  const before = previousOf.get(cell.runId);
                  const letter = SHORT[cell.verdict];
                  const className = `h h-${verdictClass(cell.verdict)}${cell.changedFrom ? ' hc' : ''}`;
                  if (cell.changedFrom && before) {
                    return (
                      <td
                        key={cell.runId}
                        className={className}
                        data-verdict={cell.verdict}
                        data-changed="true"
                      >
                        <a href={compareHref(before, cell.runId)}>
                          {letter}
                          <span className="visually-hidden">
                            {' '}
                            {cell.verdict} (was {cell.changedFrom})
                          </span>
                        </a>
                      </td>
                    );
                  }
                  return (
                    <td key={cell.runId} className={className} data-verdict={cell.verdict}>
                      {letter}
                    </td>
                  );
                })}
                <td className="num">{row.changes}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </TableScroll>
  );
}
