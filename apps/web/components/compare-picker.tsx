'use client';

import { useEffect, useId, useState } from 'react';
import { type CompareRun, diffRuns, type RunComparison } from '@/lib/compare-data';
import { compareAnyHref, compareHref, runFileHref } from '@/lib/routes';
import { RunComparisonView } from './run-comparison';

export interface PickerSet {
  slug: string;
  label: string;
  /** Oldest first. */
  runs: { runId: string; label: string }[];
}

/** A pre-rendered pair: each run against the previous run of its set. */
export interface PickerPair {
  before: string;
  after: string;
}

function pairHref(sets: readonly PickerSet[], pairs: readonly PickerPair[], a: string, b: string): string {
  const pre = pairs.find(
    (pair) => (pair.before === a && pair.after === b) || (pair.before === b && pair.after === a),
  );
  if (pre) return compareHref(pre.before, pre.after);
  // Earlier run first, whatever order they were picked in.
  const order = sets.flatMap((set) => set.runs.map((run) => run.runId));
  return order.indexOf(a) <= order.indexOf(b) ? compareAnyHref(a, b) : compareAnyHref(b, a);
}

/**
 * Any two runs of one comparable set: pick the set, then the two runs; the choice goes into the
 * URL. Shown only with JavaScript (it navigates on submit); without it, /compare/ lists every
 * pre-rendered pair as a link.
 */
export function ComparePicker({
  sets,
  pairs,
  current,
}: {
  sets: PickerSet[];
  pairs: PickerPair[];
  current?: { set: string; before: string; after: string };
}) {
  const id = useId();
  const [slug, setSlug] = useState(current?.set ?? sets[0]?.slug ?? '');
  const set = sets.find((candidate) => candidate.slug === slug) ?? sets[0];
  const runs = set?.runs ?? [];
  const [before, setBefore] = useState(current?.before ?? runs.at(-2)?.runId ?? '');
  const [after, setAfter] = useState(current?.after ?? runs.at(-1)?.runId ?? '');
  // Rendered into the static HTML too (no layout shift when it hydrates); choosing needs JavaScript.
  if (!set || runs.length < 2) return null;
  const chooseSet = (next: string) => {
    setSlug(next);
    const nextRuns = sets.find((candidate) => candidate.slug === next)?.runs ?? [];
    setBefore(nextRuns.at(-2)?.runId ?? '');
    setAfter(nextRuns.at(-1)?.runId ?? '');
  };
  return (
    <form
      className="filters compare-picker"
      aria-label="Choose two runs to compare"
      onSubmit={(event) => {
        event.preventDefault();
        if (before && after && before !== after) window.location.assign(pairHref(sets, pairs, before, after));
      }}
    >
      <div className="filter-field">
        <label htmlFor={`${id}-set`}>Comparable set</label>
        <select id={`${id}-set`} value={slug} onChange={(event) => chooseSet(event.target.value)}>
          {sets.map((candidate) => (
            <option key={candidate.slug} value={candidate.slug}>
              {candidate.label}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-before`}>Earlier run</label>
        <select id={`${id}-before`} value={before} onChange={(event) => setBefore(event.target.value)}>
          {runs.map((run) => (
            <option key={run.runId} value={run.runId}>
              {run.label}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-after`}>Later run</label>
        <select id={`${id}-after`} value={after} onChange={(event) => setAfter(event.target.value)}>
          {runs.map((run) => (
            <option key={run.runId} value={run.runId}>
              {run.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={!before || !after || before === after}>
        Compare
      </button>
    </form>
  );
}

async function load(runId: string): Promise<CompareRun> {
  const response = await fetch(runFileHref(runId, 'compare.json'));
  if (!response.ok) throw new Error(`there is no run ${runId}`);
  return (await response.json()) as CompareRun;
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; comparison: RunComparison };

/**
 * Honours `/compare/?a=<run>&b=<run>`: a pre-rendered pair is opened as its page; any other pair of
 * comparable runs is drawn here from the two runs' compare.json; runs of different sets are refused.
 */
export function CompareAny({
  sets,
  pairs,
  children,
}: {
  sets: PickerSet[];
  pairs: PickerPair[];
  children?: React.ReactNode;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [query, setQuery] = useState<{ a: string; b: string }>();
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const a = params.get('a');
    const b = params.get('b');
    if (!a || !b) return;
    setQuery({ a, b });
    const target = pairHref(sets, pairs, a, b);
    if (!target.includes('?')) {
      window.location.replace(target);
      return;
    }
    setState({ kind: 'loading' });
    Promise.all([load(a), load(b)])
      .then(([first, second]) => {
        if (first.set !== second.set) {
          setState({
            kind: 'error',
            message: `${a} (${first.corpus}, ${first.docs} docs, vs ${first.baseline}) and ${b} (${second.corpus}, ${second.docs} docs, vs ${second.baseline}) are not comparable: their corpus, size, rows, baseline or machine differ.`,
          });
          return;
        }
        const [was, now] = first.createdAt <= second.createdAt ? [first, second] : [second, first];
        setState({ kind: 'ready', comparison: diffRuns(was, now) });
      })
      .catch((error: Error) => setState({ kind: 'error', message: `No comparison: ${error.message}.` }));
  }, [sets, pairs]);
  if (state.kind === 'ready' && query) {
    const set = state.comparison.after.set;
    return (
      <RunComparisonView
        comparison={state.comparison}
        picker={
          <ComparePicker
            sets={sets}
            pairs={pairs}
            current={{ set, before: state.comparison.before.runId, after: state.comparison.after.runId }}
          />
        }
      />
    );
  }
  return (
    <>
      {state.kind === 'loading' ? (
        <p className="notice" role="status">
          Loading the two runs…
        </p>
      ) : null}
      {state.kind === 'error' ? (
        <p className="notice" role="alert">
          {state.message}
        </p>
      ) : null}
      {children}
    </>
  );
}
