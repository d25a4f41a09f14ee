import type { Mismatch } from '@/lib/definitions';

/** The two result signals that disagreed, behind a <details> so it opens without JavaScript. */
export function MismatchDetails({ mismatch }: { mismatch: Mismatch }) {
  return (
    <details className="mismatch">
      <summary>Compare results</summary>
      <p>{mismatch.summary}</p>
      <div className="mismatch-sides">
        <div>
          <p className="mismatch-label">Candidate</p>
          <pre>{JSON.stringify(mismatch.candidate, null, 2)}</pre>
        </div>
        <div>
          <p className="mismatch-label">Baseline</p>
          <pre>{JSON.stringify(mismatch.baseline, null, 2)}</pre>
        </div>
      </div>
    </details>
  );
}
