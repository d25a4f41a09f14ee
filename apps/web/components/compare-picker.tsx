'use client';

import { useEffect, useId, useState } from 'react';

export interface ComparePair {
  before: string;
  after: string;
  href: string;
  label: string;
}

/**
 * Jumps between the pre-rendered comparisons. Shown only with JavaScript (it navigates on
 * submit); the same pairs are plain links on /compare/, so nothing depends on it.
 */
export function ComparePicker({ pairs, current }: { pairs: ComparePair[]; current?: string }) {
  const [ready, setReady] = useState(false);
  const id = useId();
  const [choice, setChoice] = useState(current ?? pairs[0]?.href ?? '');
  useEffect(() => setReady(true), []);
  if (!ready || pairs.length === 0) return null;
  return (
    <form
      className="filters compare-picker"
      aria-label="Choose a comparison"
      onSubmit={(event) => {
        event.preventDefault();
        if (choice) window.location.assign(choice);
      }}
    >
      <div className="filter-field">
        <label htmlFor={id}>Compare</label>
        <select id={id} value={choice} onChange={(event) => setChoice(event.target.value)}>
          {pairs.map((pair) => (
            <option key={pair.href} value={pair.href}>
              {pair.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Show</button>
    </form>
  );
}

/**
 * Honours `/compare/?a=<run>&b=<run>` links: a static site cannot render arbitrary pairs, so this
 * forwards to the pre-rendered page of that pair, or says plainly that it does not exist.
 */
export function CompareQueryRedirect({ pairs }: { pairs: ComparePair[] }) {
  const [missing, setMissing] = useState<string>();
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const a = params.get('a');
    const b = params.get('b');
    if (!a || !b) return;
    const pair = pairs.find(
      (candidate) =>
        (candidate.before === a && candidate.after === b) ||
        (candidate.before === b && candidate.after === a),
    );
    if (pair) window.location.replace(pair.href);
    else setMissing(`${a} vs ${b}`);
  }, [pairs]);
  if (!missing) return null;
  return (
    <p className="notice" role="alert">
      There is no comparison page for {missing}: the site pre-renders each run against the run just before it.
      Pick one of those below.
    </p>
  );
}
