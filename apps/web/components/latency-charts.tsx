import type { RowResult } from '@/lib/definitions';
import { ecdfData, ecdfSpec, timelineData, timelineSpec } from '@/lib/latency-charts';
import { renderSpecSvg } from '@/lib/trend-chart';
import { TrendSvg } from './trend-svg';

/**
 * The row's latency distribution and latency over the run, both engines, as server-rendered SVG.
 * Scorecards from before the harness stored ECDFs and timelines say so instead of drawing nothing.
 */
export async function LatencyCharts({ row }: { row: RowResult }) {
  if (row.unit !== 'ms') return null;
  const ecdf = ecdfData(row);
  const timeline = timelineData(row);
  const ecdfLabel =
    'Latency distribution of both engines: share of requests (y) answered within a latency (x, log scale).';
  const timelineLabel =
    'Latency over the timed phase: p50 (solid) and p99 (dashed) per time bin for both engines.';
  const [ecdfSvg, timelineSvg] = await Promise.all([
    ecdf.length > 0 ? renderSpecSvg(ecdfSpec(ecdf, ecdfLabel)) : undefined,
    timeline.length > 0 ? renderSpecSvg(timelineSpec(timeline, timelineLabel)) : undefined,
  ]);
  return (
    <section aria-labelledby="latency-heading">
      <h2 id="latency-heading" className="section-title">
        Latency in this run
      </h2>
      <figure className="latency-chart" data-chart="ecdf">
        {ecdfSvg ? (
          <TrendSvg svg={ecdfSvg} label={ecdfLabel} />
        ) : (
          <p className="empty-chart">This run stored no latency distribution for the row.</p>
        )}
        <figcaption>
          Distribution (ECDF) of latency from the intended send time; a curve further left is faster, and the
          top of each curve is its tail.
        </figcaption>
      </figure>
      <figure className="latency-chart" data-chart="timeline">
        {timelineSvg ? (
          <TrendSvg svg={timelineSvg} label={timelineLabel} />
        ) : (
          <p className="empty-chart">This run stored no latency timeline for the row.</p>
        )}
        <figcaption>
          p50 and p99 per time bin through the timed phase: a spike in one engine&apos;s line is a stall (a
          merge, flush or pause), not noise spread over the run.
        </figcaption>
      </figure>
    </section>
  );
}
