import { differingLoads, growth } from '@everycell/harness/costCurve';
import type { Scorecard } from '@/lib/definitions';
import { formatMs } from '@/lib/format';
import { TableScroll } from './table-scroll';

const integer = new Intl.NumberFormat('en-US');

/** One side's values over the pass set, "0.310 ms -> 0.520 ms", and how many times it grew. */
function Curve({ values }: { values: readonly (number | null)[] }) {
  const grew = growth(values);
  return (
    <>
      {values.map((v) => (v === null ? 'n/a' : formatMs(v))).join(' → ')}
      {grew === undefined ? null : <span className="muted"> ({grew.toFixed(2)}x)</span>}
    </>
  );
}

/**
 * A pass set's cost curve (`--docs 100k,1m`, perhaps opened by earlier published runs named with
 * `--cost-curve-with`), carried by its last pass's scorecard: how each
 * engine's p50 and CPU per request grow with the corpus, the figure a reader sizing a cluster needs.
 */
export function CostCurve({ scorecard }: { scorecard: Scorecard }) {
  const curve = scorecard.costCurve;
  if (!curve || curve.rows.length === 0) return null;
  const sizes = curve.docs.map((d) => integer.format(d)).join(', ');
  const loads = differingLoads(curve);
  return (
    <>
      <h2 className="section-title">Cost curve</h2>
      <p>
        The corpus at {sizes} documents (runs {curve.runIds.join(', ')}), each size with its own engines and
        load. Per latency row, each engine's p50 and engine CPU per request at each size, and in brackets the
        last size's value over the first's.
        {loads.length > 0 ? (
          <>
            {' '}
            The sizes ran at different read loads ({loads.join('; ')}): a row that saturated an engine has its
            queue in its p50, so across sizes compare CPU per request, which the load does not change.
          </>
        ) : null}
      </p>
      <TableScroll label="Cost curve">
        <table className="score-table">
          <caption>p50 and CPU per request at {sizes} documents</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Candidate p50</th>
              <th scope="col">Baseline p50</th>
              <th scope="col">Candidate CPU</th>
              <th scope="col">Baseline CPU</th>
            </tr>
          </thead>
          <tbody>
            {curve.rows.map((r) => (
              <tr key={r.id}>
                <th scope="row">
                  <code>{r.id}</code>
                </th>
                <td className="num">
                  <Curve values={r.candidateP50} />
                </td>
                <td className="num">
                  <Curve values={r.baselineP50} />
                </td>
                <td className="num">
                  <Curve values={r.candidateCpuMs} />
                </td>
                <td className="num">
                  <Curve values={r.baselineCpuMs} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
