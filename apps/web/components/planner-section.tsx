import type { PlannerData } from '@/lib/planner';
import { rowHref } from '@/lib/routes';
import { CapacityPlanner } from './capacity-planner';

const ms = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/**
 * The throughput page's capacity planner: the method in words with every figure it uses, and the
 * form (live through scripts/planner-entry.tsx, which reads `data-planner`).
 */
export function PlannerSection({ data, set }: { data: PlannerData; set: string }) {
  return (
    <section
      aria-labelledby="planner-heading"
      className="planner-section"
      data-planner-app=""
      data-planner={JSON.stringify(data)}
    >
      <h2 id="planner-heading" className="section-title">
        Capacity planner
      </h2>
      <p>
        Enter a request rate and a p99 target. For each swept family and engine: whether one node of this
        machine holds the rate, by the harness's rule for a sustained rate at your target (p99 within it, at
        least 95% of the rate achieved, errors and drops within {data.maxFailure * 100}% of the requests) at
        every offered rate up to yours; the headroom (the highest rate met over yours); the cores the rate
        keeps busy, rate x CPU per request (the utilization law, Little's law applied to the CPUs); and the
        requests in flight, rate x mean latency (Little's law), at the nearest offered rate at or above yours.
        A rate above every offered one is beyond what the sweep measured, and the planner says so rather than
        extrapolate.
      </p>
      <details className="planner-figures">
        <summary>The figures it uses</summary>
        <ul>
          {data.families.map((f) => (
            <li key={f.family} data-planner-figures={f.family}>
              <strong>{f.family}</strong>: {f.candidate.points.length} offered rates from the sweep of run{' '}
              <code>{data.runId}</code>; CPU per request{' '}
              {f.sourceRowId ? (
                <>
                  from <a href={rowHref(set, f.sourceRowId)}>{f.sourceRowId}</a>: candidate{' '}
                  {f.candidate.cpuMsPerRequest === undefined
                    ? 'not measured'
                    : `${ms.format(f.candidate.cpuMsPerRequest)} ms`}
                  , baseline{' '}
                  {f.baseline.cpuMsPerRequest === undefined
                    ? 'not measured'
                    : `${ms.format(f.baseline.cpuMsPerRequest)} ms`}
                </>
              ) : (
                'not measured (the run has no read row of this family)'
              )}
              .
            </li>
          ))}
        </ul>
      </details>
      <div data-planner-view="">
        <CapacityPlanner data={data} />
      </div>
    </section>
  );
}
