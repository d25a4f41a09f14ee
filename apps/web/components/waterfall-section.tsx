import type { ChartFile } from '@/lib/chart-files';
import type { RowResult } from '@/lib/definitions';
import { hasWaterfall, partsOf, tookSides, WATERFALL_COLUMNS, waterfallTable } from '@/lib/waterfall-chart';
import { Chart } from './chart';
import { TableScroll } from './table-scroll';

/**
 * "Where the time goes": each engine's p50 and p99 split into parts (the harness's waterfall), as
 * two stacked-bar charts, the same figures in a table, and what each part means. Nothing for a
 * card that did not record it.
 */
export function WaterfallSection({
  row,
  charts,
  href,
}: {
  row: RowResult;
  /** The row's waterfall-p50 and waterfall-p99 chart files (lib/chart-files.ts), when drawn. */
  charts: readonly (ChartFile | undefined)[];
  href: (file: string) => string;
}) {
  if (!hasWaterfall(row)) return null;
  const parts = new Set(partsOf(row));
  const took = tookSides(row).map((engine) => engine.toLowerCase());
  const drawn = charts.filter((chart): chart is ChartFile => chart !== undefined);
  return (
    <section aria-labelledby="waterfall-heading" data-waterfall="">
      <h2 id="waterfall-heading" className="section-title">
        Where the time goes
      </h2>
      {drawn.length > 0 ? (
        <figure className="latency-chart waterfall-chart">
          {drawn.map((chart) => (
            <Chart key={chart.name} chart={chart} href={href} />
          ))}
          <figcaption>
            Each engine&apos;s p50 and p99 split into the parts that add up to it: the mean of each part over
            the requests ranked within 5 points of the median, or within half a point of the p99. A part below
            zero takes no width; the table gives its value.
          </figcaption>
        </figure>
      ) : null}
      <TableScroll label="Where the time goes, in milliseconds">
        <table className="score-table compact waterfall-table">
          <caption>Each part in milliseconds; a dash where the engine did not report it.</caption>
          <colgroup>
            <col />
          </colgroup>
          <colgroup span={2} />
          <colgroup span={2} />
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                Part
              </th>
              <th scope="colgroup" colSpan={2} className="num">
                p50
              </th>
              <th scope="colgroup" colSpan={2} className="num">
                p99
              </th>
            </tr>
            <tr>
              {WATERFALL_COLUMNS.map(({ quantile, engine }) => (
                <th key={`${quantile}-${engine}`} scope="col" className="num">
                  {engine}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {waterfallTable(row).map((line) => (
              <tr key={line.label} data-part={line.label}>
                <th scope="row">{line.label}</th>
                {line.cells.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed (WATERFALL_COLUMNS).
                  <td key={index} className="num">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="waterfall-note" data-waterfall-note="">
        <strong>Floor</strong> is the harness&apos;s own round trip, measured against a server that answers at
        once. <strong>Queue</strong> is how late the harness sent the requests behind its schedule.{' '}
        {parts.has('Engine') ? (
          <>
            <strong>Engine</strong> is the time the engine itself spent on the query, as it reports it (a{' '}
            <code>Server-Timing</code> header, or the <code>took</code> of its response).{' '}
          </>
        ) : null}
        {parts.has('napi hop') ? (
          <>
            <strong>napi hop</strong> is the candidate&apos;s call from its HTTP server into the engine beyond
            the engine&apos;s own time: routing, converting the request and the reply, and any wait for a
            worker thread.{' '}
          </>
        ) : null}
        {parts.has('HTTP service') ? (
          <>
            <strong>HTTP service</strong> is the candidate&apos;s HTTP handler beyond that call: reading the
            body, parsing the address and filtering the response.{' '}
          </>
        ) : null}
        <strong>Rest</strong> is what is left: HTTP and JSON beyond the floor&apos;s round trip, below zero
        when an engine answers faster than the floor&apos;s server.
        {took.length > 0 ? (
          <>
            {' '}
            {took.length === 1
              ? `The ${took[0]}'s engine part is its`
              : "Both engines' engine parts are their"}{' '}
            <code>took</code>, which counts whole milliseconds rounded down: a lower bound (marked ≥), so up
            to a millisecond of engine time per request sits in Rest.
          </>
        ) : null}
      </p>
    </section>
  );
}
