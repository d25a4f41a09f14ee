'use client';

import { startTransition, useEffect, useId, useLayoutEffect, useState } from 'react';
import { compareRunFromModel, diffRuns, type RunComparison } from '@/lib/compare-data';
import type { RunModel } from '@/lib/definitions';
import { compareAnyHref, runFileHref } from '@/lib/routes';
import { RunComparisonView } from './run-comparison';

export interface PickerSet {
  slug: string;
  label: string;
  /** Oldest first. */
  runs: { runId: string; label: string }[];
}

/** Earlier run first, whatever order they were picked in. */
function pairHref(sets: readonly PickerSet[], a: string, b: string): string {
  const order = sets.flatMap((set) => set.runs.map((run) => run.runId));
  return order.indexOf(a) <= order.indexOf(b) ? compareAnyHref(a, b) : compareAnyHref(b, a);
}

/**
 * Any two runs of one comparable set: pick the set, then the two runs; the choice goes into the
 * URL. Choosing needs JavaScript (it navigates on submit); without it, /compare/ lists the newest
 * pairs of each set as links.
 */
export function ComparePicker({
  sets,
  current,
}: {
  sets: PickerSet[];
  current?: { set: string; before: string; after: string };
}) {
  const id = useId();
  const [slug, setSlug] = useState(current?.set ?? sets[0]?.slug ?? '');
  const set = sets.find((candidate) => candidate.slug === slug) ?? sets[0];
  const runs = set?.runs ?? [];
  const [before, setBefore] = useState(current?.before ?? runs.at(-2)?.runId ?? '');
  const [after, setAfter] = useState(current?.after ?? runs.at(-1)?.runId ?? '');
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
        if (before && after && before !== after) window.location.assign(pairHref(sets, before, after));
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

async function load(runId: string): Promise<RunModel> {
  const response = await fetch(runFileHref(runId, 'run.json'));
  if (!response.ok) throw new Error(`there is no run ${runId}`);
  return (await response.json()) as RunModel;
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; comparison: RunComparison };

/** Comparison rows drawn per task: a slice, so no one task draws the whole table. */
const ROWS_PER_TASK = 15;

/** The id of the compare page's index (heading, picker, pair lists), hidden while a comparison is shown. */
export const COMPARE_INDEX_ID = 'compare-index';

/**
 * Honours `/compare/?a=<run>&b=<run>`: two runs of one comparable set are drawn here from their
 * run.json; runs of different sets are refused. Without a pair it draws nothing and the page's
 * index stays; with one, the index is hidden once the comparison (with its own picker) is shown.
 */
export function CompareAny({ sets }: { sets: PickerSet[] }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [rowLimit, setRowLimit] = useState(ROWS_PER_TASK);
  // The rows a slice per task: a phone's main thread is never blocked for the whole table at once.
  useEffect(() => {
    if (state.kind !== 'ready' || rowLimit >= state.comparison.changes.length) return;
    const next = setTimeout(() => setRowLimit((n) => n + ROWS_PER_TASK), 0);
    return () => clearTimeout(next);
  }, [state, rowLimit]);
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const a = params.get('a');
    const b = params.get('b');
    if (!a || !b) return;
    setState({ kind: 'loading' });
    Promise.all([load(a), load(b)])
      .then(([first, second]) => {
        if (first.set.slug !== second.set.slug) {
          setState({
            kind: 'error',
            message: `${a} (${first.set.label}) and ${b} (${second.set.label}) are not comparable: their corpus, size, rows, options, baseline or machine differ.`,
          });
          return;
        }
        const [was, now] = first.createdAt <= second.createdAt ? [first, second] : [second, first];
        document.title = `Compare ${now.gitRevision.slice(0, 7)} with ${was.gitRevision.slice(0, 7)} · everycell scorecard`;
        const comparison = diffRuns(compareRunFromModel(was), compareRunFromModel(now));
        // A transition: the comparison is drawn in slices that yield to the browser, not as one long task.
        startTransition(() => setState({ kind: 'ready', comparison }));
      })
      .catch((error: Error) => setState({ kind: 'error', message: `No comparison: ${error.message}.` }));
  }, []);
  // Before the browser paints the comparison: the page never shows the index and the comparison (two h1s) at once.
  useLayoutEffect(() => {
    document.getElementById(COMPARE_INDEX_ID)?.toggleAttribute('hidden', state.kind === 'ready');
    // No comparison after all: the index the page hid for it comes back (scripts/export-tidy.ts).
    if (state.kind === 'error') document.documentElement.removeAttribute('data-compare-pair');
  }, [state.kind]);
  if (state.kind === 'ready') {
    const { comparison } = state;
    return (
      <RunComparisonView
        comparison={comparison}
        rowLimit={rowLimit}
        picker={
          <ComparePicker
            sets={sets}
            current={{
              set: comparison.after.set,
              before: comparison.before.runId,
              after: comparison.after.runId,
            }}
          />
        }
      />
    );
  }
  if (state.kind === 'loading')
    return (
      <p className="notice" role="status">
        Loading the two runs…
      </p>
    );
  if (state.kind === 'error')
    return (
      <p className="notice" role="alert">
        {state.message}
      </p>
    );
  return null;
}
