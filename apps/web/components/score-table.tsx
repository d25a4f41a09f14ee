import { RATIO_RULE } from '@/lib/headline';
import { rowHref } from '@/lib/routes';
import type { TableRow } from '@/lib/table-rows';
import type { TableBody } from '@/lib/table-view';
import { MismatchDetails } from './mismatch-details';
import { InlineMarkers, TailMarker } from './row-markers';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

/** "p50 0.612 ms · p99 1.23 ms" as lines (the cell keeps line breaks), so a number column stays narrow. */
function lines(text: string): string {
  return text.split(' · ').join('\n');
}

/**
 * The full table of a run, one tbody per row group (or one sorted list); plain HTML that the
 * server renders in full, so it needs no JavaScript. It fits its column at 1,440 px (no sideways
 * scroll: numbers on two lines, each reason behind a disclosure); under 700 px each row becomes a
 * card with its verdict and ratio beside the row name (globals.css). `bodies` come from
 * lib/table-view.ts.
 */
export function ScoreTable({
  id,
  bodies,
  caption,
  levels,
  set,
  showCpu,
}: {
  /** The table's element id, for its controls (components/table-controls.tsx). */
  id?: string;
  bodies: TableBody[];
  caption: string;
  /** The intervals' levels in words (lib/interval.ts levelsInWords). */
  levels?: string;
  set: string;
  showCpu: boolean;
}) {
  const columns = showCpu ? 8 : 7;
  return (
    <TableScroll label="Rows">
      <table className="score-table run-table cards" id={id}>
        <caption>
          {caption} {RATIO_RULE}
          {levels ? ` Intervals are ${levels} confidence, as the run computed them.` : ''} The verdict uses
          the p50 (read-under-write rows the p99); the p99 column is baseline p99 / candidate p99, and ⇅ marks
          a row where the two point opposite ways.
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Verdict</th>
            <th scope="col" className="num">
              Ratio <span className="ci-head">(interval)</span>
            </th>
            <th scope="col" className="num">
              p99 ratio
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
          <tbody key={body.key} data-group={body.key === 'sorted' ? undefined : body.key}>
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
        {/* Where the controls put a sorted list, and what they show when nothing matches. */}
        <tbody data-sorted="" hidden />
        <tbody data-empty="" hidden={bodies.length > 0}>
          <tr>
            <td colSpan={columns} className="empty-table">
              No row matches these filters.
            </td>
          </tr>
        </tbody>
      </table>
    </TableScroll>
  );
}

function ScoreRow({ row, set, showCpu }: { row: TableRow; set: string; showCpu: boolean }) {
  return (
    <tr
      data-row-id={row.id}
      data-verdict={row.verdict}
      data-family={row.family}
      data-ratio={row.ratio}
      data-tail={row.tail?.kind}
    >
      <th scope="row" className="row-name">
        <a href={rowHref(set, row.id)}>{row.title}</a>
        <code className="row-id">{row.id}</code>
        <InlineMarkers markers={row.markers} />
        {row.tail ? <TailMarker text={row.tail.text} /> : null}
      </th>
      <td className="verdict-cell">
        <VerdictBadge verdict={row.verdict} />
        {row.tieShort ? (
          <span className="tie-short" title={row.tieWhy} data-tie-why>
            {row.tieShort}
          </span>
        ) : null}
      </td>
      <td className="num ratio" title={row.ratioMeaning} data-label="Ratio">
        {row.ratioText}
        {row.ci ? <span className="ci">{row.ciText}</span> : null}
      </td>
      <td className={`num p99${row.p99Text ? '' : ' empty-cell'}`} data-label="p99 ratio" data-p99>
        {row.p99Text ?? '—'}
      </td>
      <td className="num side" title={row.candidateError} data-label="Candidate">
        {lines(row.candidate)}
      </td>
      <td className="num side" title={row.baselineError} data-label="Baseline">
        {lines(row.baseline)}
      </td>
      {showCpu ? (
        <td className={`num cpu${row.cpu ? '' : ' empty-cell'}`} data-label="CPU per request">
          {row.cpu ? lines(row.cpu.replace(' (', ' · (')) : '—'}
        </td>
      ) : null}
      <td className="reason" data-label="Why">
        <details className="reason-details">
          <summary>{row.reason}</summary>
          {row.tieWhy ? <p className="tie-why">TIE because {row.tieWhy}.</p> : null}
          {row.tail ? <p className="tail-why">The candidate {row.tail.text}.</p> : null}
        </details>
        {row.mismatch ? <MismatchDetails mismatch={row.mismatch} /> : null}
      </td>
    </tr>
  );
}
