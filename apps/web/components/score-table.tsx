import { RATIO_RULE } from '@/lib/headline';
import { rowHref } from '@/lib/routes';
import type { TableRow } from '@/lib/table-rows';
import type { TableBody } from '@/lib/table-view';
import { MismatchDetails } from './mismatch-details';
import { InlineMarkers } from './row-markers';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

/**
 * The full table of a run, one tbody per row group (or one sorted list); plain HTML that the
 * server renders in full, so it needs no JavaScript. Under 700 px each row becomes a card with
 * its verdict and ratio beside the row name (globals.css). `bodies` come from lib/table-view.ts.
 */
export function ScoreTable({
  bodies,
  caption,
  set,
  showCpu,
}: {
  bodies: TableBody[];
  caption: string;
  set: string;
  showCpu: boolean;
}) {
  const columns = showCpu ? 7 : 6;
  return (
    <TableScroll label="Rows">
      <table className="score-table cards">
        <caption>
          {caption} {RATIO_RULE}
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Verdict</th>
            <th scope="col" className="num">
              Ratio <span className="ci-head">(95% CI)</span>
            </th>
            <th scope="col" className="num">
              Candidate
            </th>
            <th scope="col" className="num">
              Baseline
            </th>
            {showCpu ? (
              <th scope="col" className="num">
                CPU per request
              </th>
            ) : null}
            <th scope="col">Why</th>
          </tr>
        </thead>
        {bodies.map((body) => (
          <tbody key={body.key}>
            {body.label ? (
              <tr className="group-row">
                <th scope="rowgroup" colSpan={columns} id={`group-${body.key}`}>
                  {body.label}
                  <span className="muted"> · {body.rows.length}</span>
                </th>
              </tr>
            ) : null}
            {body.rows.map((row) => (
              <ScoreRow key={row.id} row={row} set={set} showCpu={showCpu} />
            ))}
          </tbody>
        ))}
        {bodies.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={columns} className="empty-table">
                No row matches these filters.
              </td>
            </tr>
          </tbody>
        ) : null}
      </table>
    </TableScroll>
  );
}

function ScoreRow({ row, set, showCpu }: { row: TableRow; set: string; showCpu: boolean }) {
  return (
    <tr data-row-id={row.id} data-verdict={row.verdict}>
      <th scope="row" className="row-name">
        <a href={rowHref(set, row.id)}>{row.title}</a>
        <code className="row-id">{row.id}</code>
        <InlineMarkers markers={row.markers} />
      </th>
      <td className="verdict-cell">
        <VerdictBadge verdict={row.verdict} reason={row.reason} />
      </td>
      <td className="num ratio" title={row.ratioMeaning} data-label="Ratio">
        {row.ratioText}
        {row.ciText !== '—' ? <span className="ci">{row.ciText}</span> : null}
      </td>
      <td className="num" title={row.candidateError} data-label="Candidate">
        {row.candidate}
      </td>
      <td className="num" title={row.baselineError} data-label="Baseline">
        {row.baseline}
      </td>
      {showCpu ? (
        <td className={`num${row.cpu ? '' : ' empty-cell'}`} data-label="CPU per request">
          {row.cpu ?? '—'}
        </td>
      ) : null}
      <td className="reason" data-label="Why">
        {row.reason}
        {row.mismatch ? <MismatchDetails mismatch={row.mismatch} /> : null}
      </td>
    </tr>
  );
}
