import type { Scorecard } from '@/lib/definitions';
import { engineName, formatDate } from '@/lib/format';
import { countsAgree, countVerdicts } from '@/lib/prepare';
import { VerdictCounts } from './verdict-counts';

/** A run's headline: engines, date, gate, status notices and the verdict counts. */
export function RunHeadline({ scorecard, label }: { scorecard: Scorecard; label: string }) {
  const counts = countVerdicts(scorecard.rows);
  const { candidate, baseline } = scorecard.manifest;
  const gateFails = counts.LOSE > 0 || scorecard.status === 'failed';
  return (
    <section className="hero" aria-labelledby="run-heading">
      <p className="eyebrow">
        {label} · <time dateTime={scorecard.createdAt}>{formatDate(scorecard.createdAt)}</time>
      </p>
      <h1 id="run-heading">
        {engineName(candidate)} <span className="vs">vs</span> {engineName(baseline)}
      </h1>
      <p className="run-id">
        Run <code>{scorecard.runId}</code>
        <span className={`gate ${gateFails ? 'gate-fail' : 'gate-pass'}`}>
          {gateFails ? 'Gate fails' : 'Gate passes'}
        </span>
      </p>
      {scorecard.status !== 'complete' ? (
        <p className="notice" role="status">
          This run is <strong>{scorecard.status}</strong>
          {scorecard.failure ? `: ${scorecard.failure}` : '.'} Rows below are what it measured before it
          stopped.
        </p>
      ) : null}
      {countsAgree(counts, scorecard.counts) ? null : (
        <p className="notice" role="status">
          The counts stored in the scorecard disagree with its rows; the counts shown are recomputed from the
          rows.
        </p>
      )}
      <VerdictCounts counts={counts} />
    </section>
  );
}
