import type { ReactNode } from 'react';
import type { ChangeKind, CompareRun, RowChange, RunComparison } from '@/lib/compare-data';
import { formatDate, formatRatio } from '@/lib/format';
import { RATIO_RULE } from '@/lib/headline';
import { rowHref, runHref } from '@/lib/routes';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

const KIND_HEADING: Record<ChangeKind, string> = {
  flipped: 'Verdict flipped',
  added: 'New in the later run',
  removed: 'Missing from the later run',
  same: 'Same verdict',
};
const KINDS: readonly ChangeKind[] = ['flipped', 'added', 'removed', 'same'];
const integer = new Intl.NumberFormat('en-US');

function RunLine({ run, which }: { run: CompareRun; which: string }) {
  return (
    <li data-compare-run={run.runId}>
      <span className="muted">{which}</span>{' '}
      <a href={runHref(run.runId)}>
        <time dateTime={run.createdAt}>{formatDate(run.createdAt)}</time>
      </a>
      , commit <code>{run.gitRevision.slice(0, 7)}</code>, {run.corpus}, {integer.format(run.docs)} docs, vs{' '}
      {run.baseline}
    </li>
  );
}

/**
 * Two comparable runs side by side, row by row; flipped verdicts first (order from
 * lib/compare-data.ts). Rendered on the server for pre-rendered pairs and in the browser for any
 * other pair, from the same data.
 */
export function RunComparisonView({ comparison, picker }: { comparison: RunComparison; picker?: ReactNode }) {
  const { before, after, changes, counts } = comparison;
  return (
    <>
      <p className="eyebrow">Compare</p>
      <h1>
        <code>{after.gitRevision.slice(0, 7)}</code> <span className="vs">vs</span>{' '}
        <code>{before.gitRevision.slice(0, 7)}</code>
      </h1>
      <ul className="compare-runs">
        <RunLine run={after} which="Later:" />
        <RunLine run={before} which="Earlier:" />
      </ul>
      {picker}
      <ul className="change-counts" aria-label="What changed">
        {KINDS.map((kind) => (
          <li key={kind} className={`change-${kind}`} data-testid={`changes-${kind}`}>
            <strong>{counts[kind]}</strong> {KIND_HEADING[kind].toLowerCase()}
          </li>
        ))}
      </ul>
      <TableScroll label="Row by row">
        <table className="score-table compare-table cards">
          <caption>
            Every row of either run: verdict and ratio before and after. {RATIO_RULE} A change above 1 means
            the candidate improved against the baseline.
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
                  <ChangeRow key={change.rowId} change={change} set={after.set} />
                ))}
            </tbody>
          ))}
        </table>
      </TableScroll>
    </>
  );
}

function ChangeRow({ change, set }: { change: RowChange; set: string }) {
  const { before, after } = change;
  return (
    <tr
      data-row-id={change.rowId}
      data-kind={change.kind}
      className={change.kind === 'flipped' ? 'flipped' : undefined}
    >
      <th scope="row" className="row-name">
        <a href={rowHref(set, change.rowId)}>{change.title}</a>
        <code className="row-id">{change.rowId}</code>
      </th>
      <td data-label="Before">
        {before ? (
          <VerdictBadge verdict={before.verdict} reason={before.reason} />
        ) : (
          <span className="muted">not measured</span>
        )}
      </td>
      <td data-label="After">
        {after ? (
          <VerdictBadge verdict={after.verdict} reason={after.reason} />
        ) : (
          <span className="muted">not measured</span>
        )}
      </td>
      <td className="num" data-label="Ratio before">
        {formatRatio(before?.ratio)}
      </td>
      <td className="num ratio" data-label="Ratio after">
        {formatRatio(after?.ratio)}
      </td>
      <td className="num" data-label="Change">
        {change.ratioChange === undefined ? '—' : formatRatio(change.ratioChange)}
      </td>
      <td className="reason" data-label="Why (after)">
        {after?.reason ?? before?.reason}
      </td>
    </tr>
  );
}
