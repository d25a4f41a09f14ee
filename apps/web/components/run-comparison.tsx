import type { ReactNode } from 'react';
import { formatDate, formatRatio } from '@/lib/format';
import { rowHref, runHref } from '@/lib/routes';
import type { ChangeKind, RowChange, RunComparison } from '@/lib/runs';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

const KIND_HEADING: Record<ChangeKind, string> = {
  flipped: 'Verdict flipped',
  added: 'New in the later run',
  removed: 'Missing from the later run',
  same: 'Same verdict',
};
const KINDS: readonly ChangeKind[] = ['flipped', 'added', 'removed', 'same'];

/** Two runs side by side, row by row; flipped verdicts first (comparison order from lib/runs.ts). */
export function RunComparisonView({ comparison, picker }: { comparison: RunComparison; picker?: ReactNode }) {
  const { before, after, changes, counts } = comparison;
  return (
    <>
      <p className="eyebrow">Compare</p>
      <h1>
        <time dateTime={after.createdAt}>{formatDate(after.createdAt)}</time> <span className="vs">vs</span>{' '}
        <time dateTime={before.createdAt}>{formatDate(before.createdAt)}</time>
      </h1>
      <p className="compare-runs">
        Run <a href={runHref(after.runId)}>{after.runId}</a> against the run before it,{' '}
        <a href={runHref(before.runId)}>{before.runId}</a>
      </p>
      {picker}
      <ul className="change-counts" aria-label="What changed">
        {KINDS.map((kind) => (
          <li key={kind} className={`change-${kind}`} data-testid={`changes-${kind}`}>
            <strong>{counts[kind]}</strong> {KIND_HEADING[kind].toLowerCase()}
          </li>
        ))}
      </ul>
      <TableScroll label="Row by row">
        <table className="score-table compare-table">
          <caption>
            Every row of either run: verdict and ratio before and after. Ratio change &gt; 1 means the
            candidate improved relative to the baseline.
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col" className="num">
                Ratio before
              </th>
              <th scope="col" className="num">
                Ratio after
              </th>
              <th scope="col" className="num">
                Change
              </th>
              <th scope="col">Why (after)</th>
            </tr>
          </thead>
          {KINDS.filter((kind) => counts[kind] > 0).map((kind) => (
            <tbody key={kind} data-kind={kind}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={7}>
                  {KIND_HEADING[kind]}
                  <span className="muted"> · {counts[kind]}</span>
                </th>
              </tr>
              {changes
                .filter((change) => change.kind === kind)
                .map((change) => (
                  <ChangeRow key={change.rowId} change={change} />
                ))}
            </tbody>
          ))}
        </table>
      </TableScroll>
    </>
  );
}

function ChangeRow({ change }: { change: RowChange }) {
  const { before, after } = change;
  return (
    <tr
      data-row-id={change.rowId}
      data-kind={change.kind}
      className={change.kind === 'flipped' ? 'flipped' : undefined}
    >
      <th scope="row" className="row-name">
        <a href={rowHref(change.rowId)}>{change.title}</a>
        <code className="row-id">{change.rowId}</code>
      </th>
      <td>
        {before ? (
          <VerdictBadge verdict={before.verdict} reason={before.reason} />
        ) : (
          <span className="muted">not measured</span>
        )}
      </td>
      <td>
        {after ? (
          <VerdictBadge verdict={after.verdict} reason={after.reason} />
        ) : (
          <span className="muted">not measured</span>
        )}
      </td>
      <td className="num">{formatRatio(before?.ratio)}</td>
      <td className="num ratio">{formatRatio(after?.ratio)}</td>
      <td className="num">{change.ratioChange === undefined ? '—' : formatRatio(change.ratioChange)}</td>
      <td className="reason">{after?.reason ?? before?.reason}</td>
    </tr>
  );
}
