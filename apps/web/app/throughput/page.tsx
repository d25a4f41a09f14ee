import type { Metadata } from 'next';
import { TableScroll } from '@/components/table-scroll';
import { TrendSvg } from '@/components/trend-svg';
import { VerdictBadge } from '@/components/verdict-badge';
import { getLatestRun } from '@/lib/data';
import { formatDate, formatMs, formatRatio, formatSide } from '@/lib/format';
import { scalingSpec, sweepData, sweepSpec } from '@/lib/latency-charts';
import { rowHref, runHref } from '@/lib/routes';
import { ingestScaling, scalingData, sweepViews } from '@/lib/throughput';
import { renderSpecSvg } from '@/lib/trend-chart';

export const metadata: Metadata = { title: 'Throughput and scaling' };

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export default async function ThroughputPage() {
  const latest = getLatestRun();
  if (!latest) {
    return (
      <section className="empty">
        <h1>Throughput and scaling</h1>
        <p>
          There is no run yet. Run <code>npm run bench</code> and rebuild the site.
        </p>
      </section>
    );
  }
  const { scorecard } = latest;
  const scaling = ingestScaling(scorecard);
  const scalingPoints = scalingData(scaling);
  const scalingLabel =
    'Ingest throughput (documents per second) of both engines against the number of bulk clients.';
  const scalingSvg =
    scaling.length > 1 && scalingPoints.length > 0
      ? await renderSpecSvg(scalingSpec(scalingPoints, scalingLabel))
      : undefined;
  const sweeps = await Promise.all(
    sweepViews(scorecard).map(async (view) => {
      const label = `Latency (p50 and p99) of both engines against the offered request rate, ${view.sweep.family}.`;
      const data = sweepData(view.sweep);
      const svg =
        data.length > 0 ? await renderSpecSvg(sweepSpec(data, view.sweep.p99BoundMs, label)) : undefined;
      return { ...view, label, svg };
    }),
  );

  return (
    <article className="throughput">
      <p className="eyebrow">Throughput and scaling</p>
      <h1>How far each engine scales</h1>
      <p className="lede">
        From the latest run, <a href={runHref(scorecard.runId)}>{scorecard.runId}</a> (
        <time dateTime={scorecard.createdAt}>{formatDate(scorecard.createdAt)}</time>).
      </p>

      <section aria-labelledby="scaling-heading">
        <h2 id="scaling-heading" className="section-title">
          Ingest scaling across client counts
        </h2>
        {scaling.length === 0 ? (
          <p>This run has no ingest rows.</p>
        ) : (
          <>
            {scalingSvg ? (
              <figure className="latency-chart" data-chart="scaling">
                <TrendSvg svg={scalingSvg} label={scalingLabel} />
                <figcaption>
                  Documents per second until searchable, one bulk run per engine and client count.
                </figcaption>
              </figure>
            ) : (
              <p>
                This run measured ingest with one client count only; run the benchmark with{' '}
                <code>--clients 1,2,4,8</code> for the curve.
              </p>
            )}
            <TableScroll label="Ingest scaling">
              <table className="score-table compact" data-table="scaling">
                <caption>Ingest rows of the latest run by number of concurrent clients.</caption>
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      Clients
                    </th>
                    <th scope="col" className="num">
                      Candidate
                    </th>
                    <th scope="col" className="num">
                      Baseline
                    </th>
                    <th scope="col" className="num">
                      Ratio
                    </th>
                    <th scope="col">Verdict</th>
                  </tr>
                </thead>
                <tbody>
                  {scaling.map(({ clients, row }) => (
                    <tr key={row.id} data-row-id={row.id}>
                      <td className="num">
                        <a href={rowHref(row.id)}>{clients}</a>
                      </td>
                      <td className="num">{formatSide(row, row.candidate)}</td>
                      <td className="num">{formatSide(row, row.baseline)}</td>
                      <td className="num">{formatRatio(row.ratio)}</td>
                      <td>
                        <VerdictBadge verdict={row.verdict} reason={row.reason} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>

      <section aria-labelledby="sweeps-heading">
        <h2 id="sweeps-heading" className="section-title">
          Latency at offered throughput
        </h2>
        {sweeps.length === 0 ? (
          <p className="notice" data-notice="no-sweep">
            This run had no rate sweep. A sweep measures each engine&apos;s closed-loop capacity, then its
            latency at several offered rates, and writes them to the scorecard&apos;s <code>sweeps</code>. Run
            the benchmark with its rate-sweep option (<code>npm run bench -- --help</code> lists it) and
            rebuild the site with <code>npm run build:site -w apps/web</code>.
          </p>
        ) : (
          sweeps.map(({ sweep, row, label, svg }) => (
            <div key={sweep.rowId} className="sweep" data-sweep={sweep.family}>
              <h3>
                {sweep.family}{' '}
                {row ? (
                  <>
                    <VerdictBadge verdict={row.verdict} reason={row.reason} />{' '}
                    <a href={rowHref(row.id)}>{row.title}</a>
                  </>
                ) : null}
              </h3>
              <p>
                Closed-loop capacity: candidate {integer.format(sweep.closedLoopCapacity.candidate)} req/s,
                baseline {integer.format(sweep.closedLoopCapacity.baseline)} req/s. Capacity at p99 under{' '}
                {formatMs(sweep.p99BoundMs)}:{' '}
                {row
                  ? `candidate ${formatSide(row, row.candidate)}, baseline ${formatSide(row, row.baseline)} (${formatRatio(row.ratio)})`
                  : 'no capacity row in this run'}
                .
              </p>
              {svg ? (
                <figure className="latency-chart" data-chart="sweep">
                  <TrendSvg svg={svg} label={label} />
                  <figcaption>
                    Solid p50, dashed p99, against the offered rate; the dotted line is the p99 bound.
                  </figcaption>
                </figure>
              ) : null}
              <TableScroll label={`Sweep ${sweep.family}`}>
                <table className="score-table compact" data-table="sweep">
                  <caption>Each offered rate of the {sweep.family} sweep, both engines.</caption>
                  <thead>
                    <tr>
                      <th scope="col" className="num">
                        Offered
                      </th>
                      <th scope="col" className="num">
                        Candidate achieved
                      </th>
                      <th scope="col" className="num">
                        Candidate p50 / p99
                      </th>
                      <th scope="col" className="num">
                        Baseline achieved
                      </th>
                      <th scope="col" className="num">
                        Baseline p50 / p99
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {sweep.points.map((point) => (
                      <tr key={point.offeredRate}>
                        <td className="num">{integer.format(point.offeredRate)} req/s</td>
                        <td className="num">
                          {integer.format(point.candidate.achievedRate)}
                          {point.candidate.dropped > 0
                            ? ` (${integer.format(point.candidate.dropped)} dropped)`
                            : ''}
                        </td>
                        <td className="num">
                          {formatMs(point.candidate.p50)} / {formatMs(point.candidate.p99)}
                        </td>
                        <td className="num">
                          {integer.format(point.baseline.achievedRate)}
                          {point.baseline.dropped > 0
                            ? ` (${integer.format(point.baseline.dropped)} dropped)`
                            : ''}
                        </td>
                        <td className="num">
                          {formatMs(point.baseline.p50)} / {formatMs(point.baseline.p99)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </div>
          ))
        )}
      </section>
    </article>
  );
}
