import type { ReactNode } from 'react';
import {
  type ChangeKind,
  type CompareRun,
  changeInWords,
  type Noise,
  type OverallChange,
  type RowChange,
  type RunComparison,
} from '@/lib/compare-data';
import { formatDate, formatRatio } from '@/lib/format';
import { RATIO_RULE } from '@/lib/headline';
import { levelText } from '@/lib/interval';
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
const NOISE_TEXT: Record<Noise, string> = {
  beyond: 'beyond noise',
  within: 'within noise',
  'no-interval': 'no interval',
  'not-comparable': 'N/A in a run',
};
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
 * The overall line, CodSpeed-style: how the read rows moved together (geometric mean change with
 * its interval) and how many rows improved, regressed or stayed within noise.
 */
function OverallLine({ overall }: { overall: OverallChange }) {
  const g = overall.geomean;
  const clear = g !== undefined && (g.low > 1 || g.high < 1);
  return (
    <section className="overall" aria-labelledby="overall-heading" data-overall>
      <h2 id="overall-heading" className="overall-title">
        {g === undefined ? (
          'No read row has a ratio in both runs'
        ) : (
          <>
            The later run {changeInWords(g.change)} on the read rows
            {clear ? '' : ', within noise'}
          </>
        )}
      </h2>
      {g ? (
        <p data-overall-geomean>
          Geometric mean of after / before over {g.rows} read rows: <strong>{formatRatio(g.change)}</strong>,
          95% interval {g.low.toFixed(3)}–{g.high.toFixed(3)} over the rows (above 1 the candidate gained on
          the baseline).
        </p>
      ) : null}
      <ul className="overall-counts" aria-label="Rows that moved">
        <li data-count="improved">
          <strong>{overall.improved}</strong> improved
        </li>
        <li data-count="regressed">
          <strong>{overall.regressed}</strong> regressed
        </li>
        <li data-count="unchanged">
          <strong>{overall.unchanged}</strong> unchanged within noise
        </li>
        {overall.noInterval > 0 ? (
          <li data-count="no-interval">
            <strong>{overall.noInterval}</strong> without an interval
          </li>
        ) : null}
        {overall.notComparable > 0 ? (
          <li data-count="not-comparable">
            <strong>{overall.notComparable}</strong> N/A in a run
          </li>
        ) : null}
      </ul>
      <p className="muted">
        A row moved beyond noise when the interval of its change, from the two runs&apos; own intervals,
        excludes 1.
      </p>
    </section>
  );
}

/**
 * Two comparable runs side by side: the overall line, then every row with flipped verdicts first
 * (order from lib/compare-data.ts), each flip marked as beyond or within noise. Rendered in the
 * browser from the two runs' run.json.
 */
export function RunComparisonView({
  comparison,
  picker,
  rowLimit = Number.POSITIVE_INFINITY,
}: {
  comparison: RunComparison;
  picker?: ReactNode;
  /** Rows drawn so far (the page draws them a slice per task, so no task blocks a phone for long). */
  rowLimit?: number;
}) {
  const { before, after, changes, counts, overall } = comparison;
  let drawn = 0;
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
      <OverallLine overall={overall} />
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
            Every row of either run: verdict and ratio before and after, and the change with its interval.{' '}
            {RATIO_RULE} A change above 1 means the candidate improved against the baseline.
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
              <th scope="col">Noise</th>
              <th scope="col">Why (after)</th>
            </tr>
          </thead>
          {KINDS.filter((kind) => counts[kind] > 0).map((kind) => (
            <tbody key={kind} data-kind={kind}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={8}>
                  {KIND_HEADING[kind]}
                  <span className="muted"> · {counts[kind]}</span>
                </th>
              </tr>
              {changes
                .filter((change) => change.kind === kind)
                .filter(() => drawn++ < rowLimit)
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
  const { before, after, interval } = change;
  return (
    <tr
      data-row-id={change.rowId}
      data-kind={change.kind}
      data-noise={change.noise}
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
        {interval ? (
          <span className="ci">
            {levelText(interval.level)} {interval.low.toFixed(2)}–{interval.high.toFixed(2)}
          </span>
        ) : null}
      </td>
      <td data-label="Noise">
        <span className={`noise noise-${change.noise}`}>{NOISE_TEXT[change.noise]}</span>
      </td>
      <td className="reason" data-label="Why (after)">
        <details className="reason-details">
          <summary>{after?.reason ?? before?.reason}</summary>
        </details>
      </td>
    </tr>
  );
}
