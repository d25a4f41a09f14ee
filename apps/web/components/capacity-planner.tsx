'use client';

import { useId, useState } from 'react';
import {
  answerFor,
  type Engine,
  type EngineAnswer,
  machinesFor,
  type PlannerData,
  type PlannerInput,
  parsePlannerInput,
} from '@/lib/planner';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const one = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const two = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });

/** What the page shows before a reader types: a rate both engines meet in most runs, the sweeps' own bound. */
export const DEFAULT_PLANNER_INPUT: PlannerInput = { rate: 500, p99Ms: 50 };

const ENGINES: { engine: Engine; label: string }[] = [
  { engine: 'candidate', label: 'Candidate' },
  { engine: 'baseline', label: 'Baseline' },
];

function holdsText(a: EngineAnswer, top: number): string {
  if (a.holds === 'yes') return 'yes';
  if (a.holds === 'beyond')
    return `not measured: it met every offered rate, up to ${integer.format(top)} req/s`;
  return a.sustainedRate === undefined ? 'no: it met no offered rate' : 'no';
}

function coresText(a: EngineAnswer, cores: number): string {
  if (a.cores === undefined) return 'not measured';
  const machines = machinesFor(a.cores, cores);
  return `${two.format(a.cores)} (${machines <= 1 ? `fits in this machine's ${cores}` : `${machines} machines of ${cores}`})`;
}

/** One of the form's two inputs: a decimal number, its label above it. */
function NumberField(props: {
  id: string;
  name: string;
  label: string;
  min: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <label htmlFor={props.id}>
      {props.label}{' '}
      <input
        id={props.id}
        name={props.name}
        type="number"
        inputMode="decimal"
        min={props.min}
        step="any"
        value={props.value}
        onInput={(event) => props.onValue((event.target as HTMLInputElement).value)}
      />
    </label>
  );
}

/**
 * The planner's form and answers. The page renders it with DEFAULT_PLANNER_INPUT; its script
 * (scripts/planner-entry.tsx) draws the same component in place, live as the reader types.
 */
export function CapacityPlanner({
  data,
  initial = DEFAULT_PLANNER_INPUT,
}: {
  data: PlannerData;
  initial?: PlannerInput;
}) {
  const id = useId();
  const [rate, setRate] = useState(String(initial.rate));
  const [p99, setP99] = useState(String(initial.p99Ms));
  const parsed = parsePlannerInput(rate, p99);
  const input = typeof parsed === 'string' ? undefined : parsed;
  return (
    <div className="planner">
      <form className="filters planner-form" onSubmit={(event) => event.preventDefault()}>
        <NumberField
          id={`${id}-rate`}
          name="rate"
          label="Requests per second"
          min="1"
          value={rate}
          onValue={setRate}
        />
        <NumberField
          id={`${id}-p99`}
          name="p99"
          label="p99 target (ms)"
          min="0.1"
          value={p99}
          onValue={setP99}
        />
      </form>
      {input === undefined ? (
        <p role="alert" data-planner-error="">
          {parsed as string}
        </p>
      ) : (
        <table className="score-table compact cards planner-table" data-table="planner" aria-live="polite">
          <caption>
            One node of this machine ({data.cores} cores, {data.cpuModel}) at {integer.format(input.rate)}{' '}
            req/s with p99 at most {one.format(input.p99Ms)} ms
          </caption>
          <thead>
            <tr>
              <th scope="col">Family</th>
              <th scope="col">Engine</th>
              <th scope="col">Holds it</th>
              <th scope="col">Highest rate met</th>
              <th scope="col">Headroom</th>
              <th scope="col">Cores busy</th>
              <th scope="col">In flight</th>
            </tr>
          </thead>
          <tbody>
            {data.families.flatMap((family) => {
              const top = Math.max(0, ...family.candidate.points.map((p) => p.offeredRate));
              return ENGINES.map(({ engine, label }) => {
                const a = answerFor(family[engine], input, data.maxFailure);
                return (
                  <tr
                    key={`${family.family}-${engine}`}
                    data-family={family.family}
                    data-engine={engine}
                    data-holds={a.holds}
                  >
                    <th scope="row" className="row-name">
                      {family.family}
                    </th>
                    <td data-label="Engine">{label}</td>
                    <td data-label="Holds it">{holdsText(a, top)}</td>
                    <td className="num" data-label="Highest rate met">
                      {a.sustainedRate === undefined ? 'none' : `${integer.format(a.sustainedRate)} req/s`}
                    </td>
                    <td className="num" data-label="Headroom">
                      {a.headroom === undefined ? '-' : `${two.format(a.headroom)}x`}
                    </td>
                    <td className="num" data-label="Cores busy">
                      {coresText(a, data.cores)}
                    </td>
                    <td className="num" data-label="In flight">
                      {a.inFlight === undefined
                        ? '-'
                        : `${two.format(a.inFlight)} (mean ${two.format(a.meanMs ?? 0)} ms at ${integer.format(a.meanAt ?? 0)} req/s)`}
                    </td>
                  </tr>
                );
              });
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
