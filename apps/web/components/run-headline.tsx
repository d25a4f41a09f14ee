import type { ConformanceSummary } from '@everycell/harness/schema';
import type { ChartFile } from '@/lib/chart-files';
import type { Scorecard } from '@/lib/definitions';
import { engineName, formatDate, formatRatio } from '@/lib/format';
import {
  CPU_RATIO_DEFINITION,
  GEOMEAN_DEFINITION,
  type Headline,
  headline,
  type NamedRow,
} from '@/lib/headline';
import { countVerdicts } from '@/lib/prepare';
import { rowHref, runFileHref } from '@/lib/routes';
import { Chart } from './chart';
import { RunContext } from './run-context';
import { VerdictBadge } from './verdict-badge';
import { VerdictCounts } from './verdict-counts';

/**
 * A run's headline, readable in five seconds: engines, corpus, size, baseline and commit; how big
 * the wins are (geometric mean of the read rows' ratios, engine CPU per request, conformance); the
 * rows that did not win, by name; every row's ratio with its interval in one chart.
 */
export function RunHeadline({
  scorecard,
  label,
  set,
  ratios,
  conformance,
  downloads,
}: {
  scorecard: Scorecard;
  label: string;
  /** The run's comparable set, for row links. */
  set: string;
  /** The run's every-row ratio chart, when it has rows with a ratio. */
  ratios?: ChartFile;
  conformance?: { summary: ConformanceSummary; source: string };
  /** The files the run offers for download (lib/data.ts runDownloads). */
  downloads: readonly string[];
}) {
  const counts = countVerdicts(scorecard.rows);
  const { candidate, baseline } = scorecard.manifest;
  const summary = headline(scorecard);
  // The gate's exit codes: 1 any LOSE, 2 the run failed, 3 coverage fell, 4 a row regressed against the base build.
  const gateFails =
    counts.LOSE > 0 ||
    scorecard.status === 'failed' ||
    scorecard.coverage?.fell === true ||
    scorecard.exitCode === 4;
  return (
    <section className="hero" aria-labelledby="run-heading">
      <p className="eyebrow">
        {label} · <time dateTime={scorecard.createdAt}>{formatDate(scorecard.createdAt)}</time>
      </p>
      <h1 id="run-heading">
        {engineName(candidate)} <span className="vs">vs</span> {engineName(baseline)}
      </h1>
      <RunContext scorecard={scorecard} />
      <p className="run-id">
        Run <code>{scorecard.runId}</code>
        <span className={`gate ${gateFails ? 'gate-fail' : 'gate-pass'}`}>
          {gateFails ? 'Gate fails' : 'Gate passes'}
        </span>
      </p>
      {scorecard.status !== 'complete' ? (
        <p className="notice" role="status">
          This run is <strong>{scorecard.status}</strong>
          {scorecard.failure ? `: ${scorecard.failure}` : '.'} Rows below are what it measured before it
          stopped.
        </p>
      ) : null}
      <HeadlineNumbers summary={summary} conformance={conformance} />
      <VerdictCounts counts={counts} />
      <NotWins summary={summary} set={set} />
      {ratios ? (
        <figure className="ratios-figure">
          <figcaption>
            <strong>Every row&apos;s ratio</strong>, best first, log scale: a dot per row, its 95% interval as
            a bar, the dashed line at 1. Above 1 the candidate is better.
          </figcaption>
          <Chart chart={ratios} href={(file) => runFileHref(scorecard.runId, file)} lazy={false} />
        </figure>
      ) : null}
      <Downloads runId={scorecard.runId} files={downloads} />
    </section>
  );
}

function HeadlineNumbers({
  summary,
  conformance,
}: {
  summary: Headline;
  conformance?: { summary: ConformanceSummary; source: string };
}) {
  return (
    <dl className="headline-numbers">
      {summary.geomean !== undefined ? (
        <div data-headline="geomean">
          <dt>Read rows, geometric mean</dt>
          <dd>
            <span className="big-number">{formatRatio(summary.geomean)}</span>
            <span className="definition">
              {GEOMEAN_DEFINITION}; {summary.readRows} rows, {summary.atLeastTwice} at 2× or more.
            </span>
          </dd>
        </div>
      ) : null}
      {summary.cpu ? (
        <div data-headline="cpu">
          <dt>Engine CPU per request</dt>
          <dd>
            <span className="big-number">{formatRatio(summary.cpu.geomean)}</span>
            <span className="definition">
              geometric mean over {summary.cpu.rows} read rows of {CPU_RATIO_DEFINITION}.
            </span>
          </dd>
        </div>
      ) : null}
      {conformance ? (
        <div data-headline="conformance">
          <dt>Conformance</dt>
          <dd>
            <span className="big-number">
              {conformance.summary.candidatePass}
              <span className="of"> / {conformance.summary.cases}</span>
            </span>
            <span className="definition">
              cases where the candidate answers as {conformance.summary.baseline} does (suite run{' '}
              {conformance.summary.measuredAt}, from {conformance.source}
              {conformance.summary.differences.length > 0
                ? `; ${conformance.summary.differences.length} known difference${conformance.summary.differences.length === 1 ? '' : 's'}`
                : ''}
              ).
            </span>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

const NOT_WIN: readonly { key: 'lose' | 'tie' | 'na'; verdict: 'LOSE' | 'TIE' | 'N/A'; intro: string }[] = [
  { key: 'lose', verdict: 'LOSE', intro: 'The candidate is slower or worse' },
  { key: 'tie', verdict: 'TIE', intro: 'No difference beyond the margin' },
  { key: 'na', verdict: 'N/A', intro: 'Not comparable' },
];

/** The rows that are not a WIN, by name, up front. */
function NotWins({ summary, set }: { summary: Headline; set: string }) {
  const groups = NOT_WIN.filter(({ key }) => summary[key].length > 0);
  if (groups.length === 0) return <p className="all-win">Every row is a WIN.</p>;
  return (
    <div className="not-wins">
      {groups.map(({ key, verdict, intro }) => (
        <div key={key} className="not-win" data-not-win={verdict}>
          <p className="not-win-title">
            <VerdictBadge verdict={verdict} /> {intro} ({summary[key].length})
          </p>
          <ul>
            {summary[key].map((row: NamedRow) => (
              <li key={row.id}>
                <a href={rowHref(set, row.id)}>
                  <code>{row.id}</code>
                </a>
                {row.ratio !== undefined ? ` ${formatRatio(row.ratio)}` : ''}
                {verdict === 'N/A' ? <span className="muted"> — {row.reason}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** The run's files: the scorecard as published, its markdown report, its rows as CSV, its history tables as Parquet. */
export function Downloads({ runId, files }: { runId: string; files: readonly string[] }) {
  return (
    <p className="downloads">
      Download this run:{' '}
      {files.map((file, index) => (
        <span key={file}>
          {index > 0 ? ' · ' : ''}
          <a href={runFileHref(runId, file)} download>
            {file}
          </a>
        </span>
      ))}
    </p>
  );
}
