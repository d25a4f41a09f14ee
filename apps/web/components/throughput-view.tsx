import { findChart, setCharts } from '@/lib/chart-files';
import type { Scorecard, SweepSide } from '@/lib/definitions';
import { formatDate, formatMs, formatRatio, formatSide } from '@/lib/format';
import { ratioDefinition } from '@/lib/headline';
import { pointStatus } from '@/lib/latency-charts';
import { plannerData } from '@/lib/planner-data';
import { rowHref, runHref, setChartHref } from '@/lib/routes';
import type { RunSet } from '@/lib/sets';
import { capacityBound, ingestScaling, sweepViews } from '@/lib/throughput';
import { Chart } from './chart';
import { PlannerSection } from './planner-section';
import { RunContext } from './run-context';
import { SetOptions } from './set-options';
import { TableScroll } from './table-scroll';
import { VerdictBadge } from './verdict-badge';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The ingest scaling curve and the rate sweeps of one run (the newest of its set). */
export function ThroughputView({ scorecard, set }: { scorecard: Scorecard; set: RunSet }) {
  const scaling = ingestScaling(scorecard);
  const charts = setCharts(scorecard);
  const scalingChart = findChart(charts, 'scaling.svg')?.chart;
  const href = (file: string) => setChartHref(set.slug, file);
  const planner = plannerData(scorecard);
  const sweeps = sweepViews(scorecard).map((entry) => ({
    ...entry,
    chart: charts.find((chart) => chart.name === `sweep-${entry.sweep.family.replace(/[^\w-]+/g, '_')}`),
  }));

  return (
    <article className="throughput">
      <p className="eyebrow">Throughput and scaling</p>
      <h1>How far each engine scales</h1>
      <RunContext scorecard={scorecard} />
      <SetOptions options={set.options} />
      <p className="lede">
        From the latest run of this set, <a href={runHref(scorecard.runId)}>{scorecard.runId}</a> (
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
            {scalingChart ? (
              <figure className="latency-chart">
                <Chart chart={scalingChart} href={href} />
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
              <table className="score-table compact cards scaling-table" data-table="scaling">
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
                      <th scope="row" className="num row-name">
                        <a href={rowHref(set.slug, row.id)}>
                          {clients} client{clients === 1 ? '' : 's'}
                        </a>
                      </th>
                      <td className="num" data-label="Candidate">
                        {formatSide(row, row.candidate)}
                      </td>
                      <td className="num" data-label="Baseline">
                        {formatSide(row, row.baseline)}
                      </td>
                      <td className="num ratio" data-label="Ratio">
                        {formatRatio(row.ratio)}
                      </td>
                      <td className="verdict-cell">
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
          sweeps.map(({ sweep, row, chart }) => (
            <div key={sweep.rowId} className="sweep" data-sweep={sweep.family}>
              <h3>
                {sweep.family}{' '}
                {row ? (
                  <>
                    <VerdictBadge verdict={row.verdict} reason={row.reason} />{' '}
                    <a href={rowHref(set.slug, row.id)}>{row.title}</a>
                  </>
                ) : null}
              </h3>
              <p>
                Closed-loop capacity: candidate {integer.format(sweep.closedLoopCapacity.candidate)} req/s,
                baseline {integer.format(sweep.closedLoopCapacity.baseline)} req/s.
              </p>
              {row ? (
                <ul className="capacity" data-capacity={sweep.family}>
                  {(['candidate', 'baseline'] as const).map((side) => (
                    <li
                      key={side}
                      data-side={side}
                      data-bound={capacityBound(sweep, side, row[side].value)?.kind}
                    >
                      {side === 'candidate' ? 'Candidate' : 'Baseline'} sustained p99 under{' '}
                      {formatMs(sweep.p99BoundMs)}:{' '}
                      <strong>
                        {capacityBound(sweep, side, row[side].value)?.text ?? formatSide(row, row[side])}
                      </strong>
                    </li>
                  ))}
                  <li>
                    Ratio {formatRatio(row.ratio)}
                    {row.ratio === undefined ? ' (no ratio: one side sustained no rate)' : ''} (
                    {ratioDefinition(row)}). Verdict {row.verdict}: {row.reason}
                  </li>
                </ul>
              ) : (
                <p>No capacity row in this run.</p>
              )}
              {chart ? (
                <figure className="latency-chart">
                  <Chart chart={chart} href={href} />
                  <figcaption>
                    Solid p50, dashed p99, against the offered rate; the dotted line is the p99 bound. Circles
                    count toward capacity; a cross (p99 over the bound), a triangle (the engine fell below 95%
                    of the offered rate) or a diamond (too many failed or dropped requests) was disqualified,
                    as the table says.
                  </figcaption>
                </figure>
              ) : null}
              <TableScroll label={`Sweep ${sweep.family}`}>
                <table className="score-table compact cards sweep-table" data-table="sweep">
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
                      <th scope="col">Counts toward capacity</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sweep.points.map((point) => (
                      <tr key={point.offeredRate}>
                        <th scope="row" className="num row-name">
                          {integer.format(point.offeredRate)} req/s
                        </th>
                        <td className="num" data-label="Candidate achieved">
                          {point.candidate.skipped ? '-' : integer.format(point.candidate.achievedRate)}
                          {point.candidate.dropped > 0
                            ? ` (${integer.format(point.candidate.dropped)} dropped)`
                            : ''}
                        </td>
                        <td className="num" data-label="Candidate p50 / p99">
                          {point.candidate.skipped
                            ? 'not run'
                            : `${formatMs(point.candidate.p50 ?? Number.NaN)} / ${formatMs(point.candidate.p99 ?? Number.NaN)}`}
                        </td>
                        <td className="num" data-label="Baseline achieved">
                          {point.baseline.skipped ? '-' : integer.format(point.baseline.achievedRate)}
                          {point.baseline.dropped > 0
                            ? ` (${integer.format(point.baseline.dropped)} dropped)`
                            : ''}
                        </td>
                        <td className="num" data-label="Baseline p50 / p99">
                          {point.baseline.skipped
                            ? 'not run'
                            : `${formatMs(point.baseline.p50 ?? Number.NaN)} / ${formatMs(point.baseline.p99 ?? Number.NaN)}`}
                        </td>
                        <td data-label="Counts toward capacity">
                          {`candidate ${sideStatus(point.candidate, point.offeredRate, sweep.p99BoundMs, row?.candidate.value)}; baseline ${sideStatus(point.baseline, point.offeredRate, sweep.p99BoundMs, row?.baseline.value)}`}
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
      {planner ? <PlannerSection data={planner} set={set.slug} /> : null}
    </article>
  );
}

/** A point's status in words; a rate the engine was not offered (two lower rates already failed) says so. */
function sideStatus(side: SweepSide, offeredRate: number, boundMs: number, capacity?: number): string {
  return side.skipped ? 'not run (past its knee)' : pointStatus(side, offeredRate, boundMs, capacity);
}
