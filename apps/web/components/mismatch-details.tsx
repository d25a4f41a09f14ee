/** The two result signals that disagreed, behind a <details> so it opens without JavaScript. */
export function MismatchDetails({
  mismatch,
}: {
  mismatch: { summary: string; candidate: string; baseline: string };
}) {
  return (
    <details className="mismatch">
      <summary>Compare results</summary>
      <p>{mismatch.summary}</p>
      <div className="mismatch-sides">
        <div>
          <p className="mismatch-label">Candidate</p>
          <pre>{mismatch.candidate}</pre>
        </div>
        <div>
          <p className="mismatch-label">Baseline</p>
          <pre>{mismatch.baseline}</pre>
        </div>
      </div>
    </details>
  );
}
