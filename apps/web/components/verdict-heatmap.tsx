import { compareHref, rowHref, runHref } from '@/lib/routes';
import type { Heatmap } from '@/lib/runs';
import { TableScroll } from './table-scroll';
import { VERDICT_GLYPH, verdictClass } from './verdict-badge';

const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const shortTime = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});

/**
 * Rows × runs, each cell the row's verdict in that run as colour, glyph and word; a cell whose
 * verdict changed from the row's previous one is outlined and says so in words, and links to the
 * comparison of that run with its predecessor.
 */
export function VerdictHeatmap({ heatmap }: { heatmap: Heatmap }) {
  const { runs } = heatmap;
  const previousOf = new Map(runs.map((run, index) => [run.runId, runs[index - 1]?.runId]));
  return (
    <TableScroll label="Verdicts over time">
      <table className="heatmap">
        <caption>
          Verdict of every row in each run, oldest run on the left. Outlined cells changed verdict since the
          row&apos;s previous run.
          {heatmap.omitted > 0 ? ` The ${heatmap.omitted} oldest runs are not shown.` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            {runs.map((run) => (
              <th scope="col" key={run.runId} className="heat-run">
                <a href={runHref(run.runId)} title={run.runId}>
                  {shortDate.format(new Date(run.createdAt))}
                  <span className="heat-time">{shortTime.format(new Date(run.createdAt))}</span>
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
                  <a href={rowHref(row.rowId)}>{row.title}</a>
                </th>
                {row.cells.map((cell) => {
                  if (!cell.verdict) {
                    return (
                      <td key={cell.runId} className="heat-cell heat-absent">
                        <span aria-hidden="true">·</span>
                        <span className="visually-hidden">not measured</span>
                      </td>
                    );
                  }
                  const before = previousOf.get(cell.runId);
                  const content = (
                    <>
                      <span aria-hidden="true" className="badge-glyph">
                        {VERDICT_GLYPH[cell.verdict]}
                      </span>{' '}
                      {cell.verdict}
                      {cell.changedFrom ? (
                        <span className="visually-hidden"> (was {cell.changedFrom})</span>
                      ) : null}
                    </>
                  );
                  return (
                    <td
                      key={cell.runId}
                      className={`heat-cell heat-${verdictClass(cell.verdict)}${cell.changedFrom ? ' heat-changed' : ''}`}
                      title={cell.changedFrom ? `was ${cell.changedFrom}: ${cell.reason ?? ''}` : cell.reason}
                      data-verdict={cell.verdict}
                      data-changed={cell.changedFrom ? 'true' : undefined}
                    >
                      {cell.changedFrom && before ? (
                        <a href={compareHref(before, cell.runId)}>{content}</a>
                      ) : (
                        content
                      )}
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
