import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { LatencyCharts } from '@/components/latency-charts';
import { MismatchDetails } from '@/components/mismatch-details';
import { MarkerList } from '@/components/row-markers';
import { RowSelector } from '@/components/row-selector';
import { SideStats } from '@/components/side-stats';
import { TableScroll } from '@/components/table-scroll';
import { TrendSvg } from '@/components/trend-svg';
import { VerdictBadge } from '@/components/verdict-badge';
import {
  getLatestRowResult,
  getLatestRowWithRun,
  getRowIds,
  getRowTrend,
  getWaivers,
  runFileExists,
} from '@/lib/data';
import { formatCi, formatDate, formatRatio, formatSide } from '@/lib/format';
import { rowMarkers, waiverFor } from '@/lib/markers';
import { runFileHref, runHref } from '@/lib/routes';
import { chartData, renderTrendSvg } from '@/lib/trend-chart';

type Params = { id: string };

// Every row gets a static page; ids unknown at build time have no page.
export const dynamicParams = false;

export function generateStaticParams(): Params[] {
  return getRowIds().map((id) => ({ id }));
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { id } = await params;
  return { title: getLatestRowResult(decodeURIComponent(id))?.title ?? id };
}

export default async function RowTrendPage({ params }: { params: Promise<Params> }) {
  const id = decodeURIComponent((await params).id);
  const latest = getLatestRowWithRun(id);
  const trend = getRowTrend(id);
  if (!latest || !trend) notFound();
  const { row, scorecard } = latest;
  const markers = rowMarkers(row, waiverFor(getWaivers(), row.id, scorecard.createdAt));
  const diffFound = row.diffPath !== undefined && runFileExists(scorecard.runId, row.diffPath);
  const data = chartData(trend.points);
  const description = `Ratio of ${row.title} per run, with its 95% confidence interval and a line at 1×.`;
  // The SVG is vega's output from numbers, dates and verdicts only (see lib/trend-chart.ts).
  const svg = data.length > 0 ? await renderTrendSvg(data, description) : undefined;
  const rowsOfLatest = getRowIds().flatMap((rowId) => getLatestRowResult(rowId) ?? []);

  return (
    <div className="row-layout">
      <RowSelector rows={rowsOfLatest} current={id} />
      <article className="row-detail">
        <p className="eyebrow">
          <Link href="/">Latest run</Link> / {row.group} / {row.family}
        </p>
        <h1>{row.title}</h1>
        <p className="run-id">
          <code>{row.id}</code>
        </p>
        <section className="latest-result" aria-label="Latest result">
          <VerdictBadge verdict={row.verdict} reason={row.reason} />
          {row.ratio !== undefined ? (
            <>
              <span className="big-ratio">{formatRatio(row.ratio)}</span>
              <span className="muted">95% CI {formatCi(row.ci)}</span>
            </>
          ) : null}
          <p className="reason">{row.reason}</p>
          <p className="sides">
            <span>
              Candidate: <strong>{formatSide(row, row.candidate)}</strong>
            </span>
            <span>
              Baseline: <strong>{formatSide(row, row.baseline)}</strong>
            </span>
          </p>
          {row.mismatch ? <MismatchDetails mismatch={row.mismatch} /> : null}
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
          <p className="muted">
            From run <a href={runHref(scorecard.runId)}>{scorecard.runId}</a>
            {row.rounds ? `, ${row.rounds} paired rounds per engine` : ''}
            {row.signalChecks ? `, ${row.signalChecks} response pairs compared` : ''}.
          </p>
        </section>
        <section aria-labelledby="caveats-heading">
          <h2 id="caveats-heading" className="section-title">
            Caveats
          </h2>
          <MarkerList markers={markers} />
        </section>
        <SideStats row={row} />
        <LatencyCharts row={row} />
        {row.request !== undefined ? (
          <details className="request-body">
            <summary>Request body</summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide body scrolls sideways; keyboard users must reach it. */}
            <pre tabIndex={0}>{JSON.stringify(row.request, null, 2)}</pre>
          </details>
        ) : null}
        <h2 className="section-title">History</h2>
        <figure className="trend">
          {svg ? (
            <TrendSvg svg={svg} label={description} />
          ) : (
            <p className="empty-chart">No run has a ratio for this row yet: every run was N/A.</p>
          )}
          <figcaption>
            {svg
              ? 'Ratio per run (log scale; > 1 = candidate better), shaded band = 95% CI, dashed line = parity. '
              : ''}
            {`${trend.points.length} runs.`}
          </figcaption>
        </figure>
        <h2 className="section-title">Runs</h2>
        <TableScroll label="This row in every run">
          <table className="score-table compact">
            <caption>This row in every run that measured it, oldest first.</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Run</th>
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
            <tbody>
              {trend.points.map((point, index) => (
                <tr key={point.runId} data-run-id={point.runId}>
                  <td className="muted">{index + 1}</td>
                  <td>
                    <a href={runHref(point.runId)}>
                      <time dateTime={point.createdAt}>{formatDate(point.createdAt)}</time>
                    </a>
                    <code className="row-id">{point.runId}</code>
                  </td>
                  <td className="num">{formatRatio(point.ratio)}</td>
                  <td className="num muted">
                    {formatCi(
                      point.ciLow !== undefined && point.ciHigh !== undefined
                        ? [point.ciLow, point.ciHigh]
                        : undefined,
                    )}
                  </td>
                  <td>
                    <VerdictBadge verdict={point.verdict} reason={point.reason} />
                  </td>
                  <td className="reason">{point.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </article>
    </div>
  );
}
