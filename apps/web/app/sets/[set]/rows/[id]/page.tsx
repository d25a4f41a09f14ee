import { differingLoads } from '@everycell/harness/costCurve';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Chart } from '@/components/chart';
import { Frozen } from '@/components/frozen';
import { MismatchDetails } from '@/components/mismatch-details';
import { MarkerList } from '@/components/row-markers';
import { RowSelector } from '@/components/row-selector';
import { RunContext } from '@/components/run-context';
import { SideStats } from '@/components/side-stats';
import { TableScroll } from '@/components/table-scroll';
import { VerdictBadge } from '@/components/verdict-badge';
import { WaterfallSection } from '@/components/waterfall-section';
import { isJump, rowCharts, trendData } from '@/lib/chart-files';
import { getRowParams, getRowView, getWaivers, runFileExists } from '@/lib/data';
import type { TrendPoint } from '@/lib/definitions';
import { formatCi, formatDate, formatMs, formatRatio, formatSide } from '@/lib/format';
import { CPU_RATIO_DEFINITION, ratioDefinition, scoredPercentile } from '@/lib/headline';
import { intervalLevel, intervalName, levelsInWords } from '@/lib/interval';
import { lagLimit, rowMarkers } from '@/lib/markers';
import { methodologyHref, rowFileHref, runFileHref, runHref, setHref, setRunsHref } from '@/lib/routes';
import { setLabel } from '@/lib/sets';
import { p99Ratio, tailDisagreement, tailText, tieMarginOf } from '@/lib/tails';
import { tieExplanation } from '@/lib/tie';
import { waiverFor } from '@/lib/waivers';

type Params = { set: string; id: string };

// Every row of every comparable set gets a static page; others have none.
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getRowParams();
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { set, id } = await params;
  const view = getRowView(decodeURIComponent(set), decodeURIComponent(id));
  return { title: view ? `${view.row.title} (${setLabel(view.set)})` : id };
}

const lastWithRatio = (points: readonly TrendPoint[]) =>
  [...points].reverse().find((p) => p.ratio !== undefined);

const ciOf = (point: TrendPoint) =>
  point.ciLow !== undefined && point.ciHigh !== undefined
    ? ([point.ciLow, point.ciHigh] as const)
    : undefined;

export default async function RowPage({ params }: { params: Promise<Params> }) {
  const { set: slug, id: rawId } = await params;
  const id = decodeURIComponent(rawId);
  const view = getRowView(decodeURIComponent(slug), id);
  if (!view) notFound();
  const { row, scorecard, set, trend, siblings, olderRuns } = view;
  const settings = scorecard.manifest.settings;
  const markers = rowMarkers(row, {
    maxSendLagP99Ms: lagLimit(settings),
    waiver: waiverFor(getWaivers(), row.id, scorecard.createdAt),
  });
  const level = intervalLevel(row, settings);
  const tie = tieExplanation(row, settings);
  const p99 = p99Ratio(row);
  const tail = tailDisagreement(row, tieMarginOf(settings));
  const trendLevels = levelsInWords(
    trend.points.map((point) => ({ id: point.runId, level: point.level })),
    false,
  );
  const diffFound = row.diffPath !== undefined && runFileExists(scorecard.runId, row.diffPath);
  const shrunkPath = row.shrunk?.path;
  const shrunkFound = shrunkPath !== undefined && runFileExists(scorecard.runId, shrunkPath);
  const charts = new Map(rowCharts(row, trend.points, scorecard).map((chart) => [chart.name, chart]));
  const href = (file: string) => rowFileHref(set.slug, row.id, file);
  const trendChart = charts.get('trend');
  const enginesChart = charts.get('engines');
  const jumps = trendData(trend.points).filter((datum) => datum.jump);
  const meaning = ratioDefinition(row);

  // Static from top to bottom (links and <details> need no React): kept as the server wrote it.
  return (
    <Frozen className="row-layout">
      <article className="row-detail">
        <p className="eyebrow">
          <a href={setHref(set.slug)}>Latest run of this set</a> / {row.group} / {row.family}
        </p>
        <h1>{row.title}</h1>
        <p className="run-id">
          <code>{row.id}</code>
        </p>
        <RunContext scorecard={scorecard} />
        <section className="latest-result" aria-label="Latest result">
          <VerdictBadge verdict={row.verdict} />
          {row.ratio !== undefined ? (
            <>
              <span className="big-ratio">{formatRatio(row.ratio)}</span>
              <span className="muted" data-interval>
                {row.ci
                  ? `${intervalName(level)} ${formatCi(row.ci)}`
                  : 'no interval: one measurement per engine'}
              </span>
            </>
          ) : null}
          {tie ? (
            <p className="tie-why" data-tie-why>
              <strong>Why a TIE:</strong> {tie.text}.
            </p>
          ) : null}
          {p99 !== undefined ? (
            <p className="tail" data-tail={tail ?? 'agrees'}>
              {tail ? (
                <>
                  <span className="marker marker-tail">
                    <span aria-hidden="true">⇅</span> p99 disagrees
                  </span>{' '}
                  The candidate {tailText(tail, p99)}. The verdict is judged on the {scoredPercentile(row)} (
                  <a href={`${methodologyHref()}#rules`}>why</a>).
                </>
              ) : (
                <>
                  The verdict is judged on the {scoredPercentile(row)}; the tail points the same way or within
                  the margin: baseline p99 / candidate p99 = {formatRatio(p99)}.
                </>
              )}
            </p>
          ) : null}
          <p className="ratio-meaning" data-ratio-meaning>
            Ratio = {meaning}.
          </p>
          <p className="reason">{row.reason}</p>
          <p className="sides">
            <span>
              Candidate: <strong>{formatSide(row, row.candidate)}</strong>
            </span>
            <span>
              Baseline: <strong>{formatSide(row, row.baseline)}</strong>
            </span>
            {row.candidate.cpuMsPerRequest !== undefined && row.baseline.cpuMsPerRequest !== undefined ? (
              <span data-cpu>
                Engine CPU per request: <strong>{formatMs(row.candidate.cpuMsPerRequest)}</strong> vs{' '}
                <strong>{formatMs(row.baseline.cpuMsPerRequest)}</strong>
                {row.cpuRatio !== undefined ? ` (${formatRatio(row.cpuRatio)}; ${CPU_RATIO_DEFINITION})` : ''}
              </span>
            ) : null}
          </p>
          {row.mismatch ? (
            <MismatchDetails
              mismatch={{
                summary: row.mismatch.summary,
                candidate: JSON.stringify(row.mismatch.candidate, null, 2),
                baseline: JSON.stringify(row.mismatch.baseline, null, 2),
              }}
            />
          ) : null}
          {row.diffPath ? (
            <p className="diff-link">
              {diffFound ? (
                <a href={runFileHref(scorecard.runId, row.diffPath)}>Full diff of the two responses</a>
              ) : (
                <>
                  The run recorded a diff at <code>{row.diffPath}</code>, but the file is not in its folder.
                </>
              )}
            </p>
          ) : null}
          {row.shrunk ? (
            <p className="shrunk-link" data-shrunk="">
              {shrunkPath && shrunkFound ? (
                <>
                  <a href={runFileHref(scorecard.runId, shrunkPath)}>
                    The difference shrunk to a conformance case
                  </a>{' '}
                  ({row.shrunk.documents ?? 0} of {row.shrunk.documentsBefore ?? 0} documents, the request
                  after {row.shrunk.requestTests ?? 0} experiments): copy it into the engine's conformance
                  cases to keep it fixed.
                </>
              ) : shrunkPath ? (
                <>
                  The run wrote a shrunk case at <code>{shrunkPath}</code>, but the file is not in its folder.
                </>
              ) : (
                <>Not shrunk to a case: {row.shrunk.skipped}</>
              )}
            </p>
          ) : null}
          <p className="muted">
            From run <a href={runHref(scorecard.runId)}>{scorecard.runId}</a>
            {row.rounds ? `, ${row.rounds} paired rounds per engine` : ''}
            {row.forks ? ` in ${row.forks} process executions` : ''}
            {row.signalChecks ? `, ${row.signalChecks} response pairs compared` : ''}.
          </p>
        </section>
        <section aria-labelledby="caveats-heading">
          <h2 id="caveats-heading" className="section-title">
            Caveats
          </h2>
          <MarkerList markers={markers} />
        </section>
        <section aria-labelledby="history-heading">
          <h2 id="history-heading" className="section-title">
            History in this set
          </h2>
          <p className="muted">
            {trend.points.length} run{trend.points.length === 1 ? '' : 's'} of {setLabel(set)}; runs of other
            sizes, options or baselines are not mixed in.
            {olderRuns > 0 ? (
              <>
                {' '}
                The {olderRuns} older run{olderRuns === 1 ? '' : 's'} that measured it are listed on{' '}
                <a href={setRunsHref(set.slug)}>the set&apos;s history</a>.
              </>
            ) : null}
          </p>
          <div className="chart-pair">
            <figure className="trend">
              {trendChart ? (
                <Chart chart={trendChart} href={href} />
              ) : (
                <p className="empty-chart">No run has a ratio for this row yet: every run was N/A.</p>
              )}
              {trendChart ? (
                <figcaption>
                  Ratio per run ({meaning}), log scale. Each bar is that run&apos;s {trendLevels ?? ''}{' '}
                  confidence interval, at the level the run computed (the table below gives each); the dashed
                  line is parity. A commit written above a run marks a jump of 25% or more beyond both
                  intervals.
                </figcaption>
              ) : null}
            </figure>
            {enginesChart ? (
              <figure className="engines">
                <Chart chart={enginesChart} href={href} />
                <figcaption>Each engine&apos;s own number per run, the two inputs of the ratio.</figcaption>
              </figure>
            ) : null}
          </div>
          {jumps.length > 0 ? (
            <ul className="jumps" aria-label="Jumps">
              {jumps.map((jump) => {
                const point = trend.points[jump.order] as TrendPoint;
                const before = lastWithRatio(trend.points.slice(0, jump.order));
                return (
                  <li key={point.runId} data-jump={point.runId}>
                    <a href={runHref(point.runId)}>
                      <time dateTime={point.createdAt}>{formatDate(point.createdAt)}</time>
                    </a>
                    , commit <code>{point.gitRevision.slice(0, 7)}</code>: {formatRatio(before?.ratio)} →{' '}
                    {formatRatio(point.ratio)}
                  </li>
                );
              })}
            </ul>
          ) : null}
        </section>
        <SideStats row={row} />
        {charts.has('ecdf') || charts.has('timeline') || row.unit === 'ms' ? (
          <section aria-labelledby="latency-heading">
            <h2 id="latency-heading" className="section-title">
              Latency in the latest run
            </h2>
            <figure className="latency-chart">
              {charts.get('ecdf') ? (
                <Chart chart={charts.get('ecdf') as NonNullable<ReturnType<typeof charts.get>>} href={href} />
              ) : (
                <p className="empty-chart">This run stored no latency distribution for the row.</p>
              )}
              <figcaption>
                Distribution (ECDF) of latency from the intended send time; a curve further left is faster,
                and the top of each curve is its tail.
              </figcaption>
            </figure>
            <figure className="latency-chart">
              {charts.get('timeline') ? (
                <Chart
                  chart={charts.get('timeline') as NonNullable<ReturnType<typeof charts.get>>}
                  href={href}
                />
              ) : (
                <p className="empty-chart">This run stored no latency timeline for the row.</p>
              )}
              <figcaption>
                p50 and p99 per time bin through the timed phase: a spike in one engine&apos;s line is a stall
                (a merge, flush or pause), not noise spread over the run.
              </figcaption>
            </figure>
          </section>
        ) : null}
        <WaterfallSection
          row={row}
          charts={[charts.get('waterfall-p50'), charts.get('waterfall-p99')]}
          href={href}
        />
        {charts.get('cost') ? (
          <section aria-labelledby="cost-heading" data-cost-curve>
            <h2 id="cost-heading" className="section-title">
              Cost against corpus size
            </h2>
            <figure className="latency-chart">
              <Chart chart={charts.get('cost') as NonNullable<ReturnType<typeof charts.get>>} href={href} />
              <figcaption>
                This row&apos;s p50 and engine CPU per request at{' '}
                {(scorecard.costCurve?.docs ?? []).map((d) => d.toLocaleString('en-US')).join(', ')} documents
                (runs {(scorecard.costCurve?.runIds ?? []).join(', ')}): the steeper line is the engine whose
                cost grows faster with the data.{' '}
                {differingLoads(scorecard.costCurve ?? {}).length > 0
                  ? 'The sizes ran at different read loads, and a saturated row carries its queue in its p50: compare the CPU lines across sizes.'
                  : ''}
              </figcaption>
            </figure>
          </section>
        ) : null}
        {row.request !== undefined ? (
          <details className="request-body">
            <summary>Request body</summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide body scrolls sideways; keyboard users must reach it. */}
            <pre tabIndex={0}>{JSON.stringify(row.request, null, 2)}</pre>
          </details>
        ) : null}
        <h2 className="section-title">Runs</h2>
        <TableScroll label="This row in every run">
          <table className="score-table compact cards">
            <caption>
              This row in every run of the set that measured it, oldest first. Ratio = {meaning}.
            </caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Verdict</th>
                <th scope="col" className="num">
                  Ratio
                </th>
                <th scope="col" className="num">
                  Interval
                </th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {trend.points.map((point, index) => (
                <tr
                  key={point.runId}
                  data-run-id={point.runId}
                  data-jump={isJump(lastWithRatio(trend.points.slice(0, index)), point) ? 'true' : undefined}
                >
                  <th scope="row" className="row-name">
                    <a href={runHref(point.runId)}>
                      <time dateTime={point.createdAt}>{formatDate(point.createdAt)}</time>
                    </a>
                    <span className="row-id">
                      #{index + 1} · commit <code>{point.gitRevision.slice(0, 7)}</code>
                    </span>
                  </th>
                  <td className="verdict-cell">
                    <VerdictBadge verdict={point.verdict} />
                  </td>
                  <td className="num ratio" data-label="Ratio">
                    {formatRatio(point.ratio)}
                  </td>
                  <td className="num muted" data-label="Interval">
                    {ciOf(point) ? `${intervalName(point.level)} ${formatCi(ciOf(point))}` : '—'}
                  </td>
                  <td className="reason" data-label="Why">
                    <details className="reason-details">
                      <summary>{point.reason}</summary>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </article>
      <RowSelector rows={siblings} current={id} set={set.slug} />
    </Frozen>
  );
}
