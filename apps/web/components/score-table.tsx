import type { RowResult } from '@/lib/definitions';
import { formatCi, formatRatio, formatSide } from '@/lib/format';
import { rowMarkers, TABLE_MARKERS } from '@/lib/markers';
import { rowHref } from '@/lib/routes';
import type { TableBody } from '@/lib/table-view';
import { MismatchDetails } from './mismatch-details';
import { InlineMarkers } from './row-markers';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

const COLUMNS = 7;

/**
 * The full table of a run, one tbody per row group (or one sorted list); plain HTML that the
 * server renders in full, so it needs no JavaScript. `bodies` come from lib/table-view.ts.
 */
export function ScoreTable({ bodies, caption }: { bodies: TableBody[]; caption: string }) {
  return (
    <TableScroll label="Rows">
      <table className="score-table">
        <caption>{caption} Ratio &gt; 1 means the candidate is better.</caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col" className="num">
              Candidate
            </th>
            <th scope="col" className="num">
              Baseline
            </th>
            <th scope="col" className="num">
              Ratio
            </th>
            <th scope="col" className="num">
              95% CI
            </th>
            <th scope="col">Verdict</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        {bodies.map((body) => (
          <tbody key={body.key}>
            {body.label ? (
              <tr className="group-row">
                <th scope="rowgroup" colSpan={COLUMNS} id={`group-${body.key}`}>
                  {body.label}
                  <span className="muted"> · {body.rows.length}</span>
                </th>
              </tr>
            ) : null}
            {body.rows.map((row) => (
              <ScoreRow key={row.id} row={row} />
            ))}
          </tbody>
        ))}
        {bodies.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={COLUMNS} className="empty-table">
                No row matches these filters.
              </td>
            </tr>
          </tbody>
        ) : null}
      </table>
    </TableScroll>
  );
}

function ScoreRow({ row }: { row: RowResult }) {
  const markers = rowMarkers(row).filter((marker) => TABLE_MARKERS.includes(marker.kind));
  return (
    <tr data-row-id={row.id} data-verdict={row.verdict}>
      <th scope="row" className="row-name">
        <a href={rowHref(row.id)}>{row.title}</a>
        <code className="row-id">{row.id}</code>
        <InlineMarkers markers={markers} />
      </th>
      <td className="num" title={row.candidate.error}>
        {formatSide(row, row.candidate)}
      </td>
      <td className="num" title={row.baseline.error}>
        {formatSide(row, row.baseline)}
      </td>
      <td className="num ratio">{formatRatio(row.ratio)}</td>
      <td className="num muted">{formatCi(row.ci)}</td>
      <td>
        <VerdictBadge verdict={row.verdict} reason={row.reason} />
      </td>
      <td className="reason">
        {row.reason}
        {row.mismatch ? <MismatchDetails mismatch={row.mismatch} /> : null}
      </td>
    </tr>
  );
}
