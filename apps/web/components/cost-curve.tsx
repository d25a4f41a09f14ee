import type { CostCurveModel } from '@/lib/definitions';
import { TableScroll } from './table-scroll';

/**
 * A pass set's cost curve (`--docs 100k,1m`, perhaps opened by earlier published runs named with
 * `--cost-curve-with`), carried by its last pass's scorecard: how each engine's p50 and CPU per
 * request grow with the corpus, the figure a reader sizing a cluster needs.
 */
export function CostCurve({ curve }: { curve?: CostCurveModel }) {
  if (!curve || curve.rows.length === 0) return null;
  return (
    <>
      <h2 className="section-title">Cost curve</h2>
      <p>
        The corpus at {curve.sizes} documents (runs {curve.runIds.join(', ')}), each size with its own engines
        and load. Per latency row, each engine's p50 and engine CPU per request at each size, and in brackets
        the last size's value over the first's.
        {curve.loads.length > 0 ? (
          <>
            {' '}
            The sizes ran at different read loads ({curve.loads.join('; ')}): a row that saturated an engine
            has its queue in its p50, so across sizes compare CPU per request, which the load does not change.
          </>
        ) : null}
      </p>
      <TableScroll label="Cost curve">
        <table className="score-table cards cost-table">
          <caption>p50 and CPU per request at {curve.sizes} documents</caption>
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
                <th scope="row" className="row-name">
                  <code>{r.id}</code>
                </th>
                <td className="num" data-label="Candidate p50">
                  {r.candidateP50}
                </td>
                <td className="num" data-label="Baseline p50">
                  {r.baselineP50}
                </td>
                <td className="num" data-label="Candidate CPU">
                  {r.candidateCpu}
                </td>
                <td className="num" data-label="Baseline CPU">
                  {r.baselineCpu}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
