import type { Scorecard } from '@/lib/definitions';
import { engineName, formatDate } from '@/lib/format';
import { countVerdicts } from '@/lib/prepare';
import { VerdictCounts } from './verdict-counts';

/** A run's headline: engines, date, gate, status notices and the verdict counts. */
export function RunHeadline({ scorecard, label }: { scorecard: Scorecard; label: string }) {
  const counts = countVerdicts(scorecard.rows);
  const { candidate, baseline } = scorecard.manifest;
  // The gate's exit codes: 1 any LOSE, 2 the run failed, 3 coverage fell.
  const gateFails = counts.LOSE > 0 || scorecard.status === 'failed' || scorecard.coverage?.fell === true;
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
      <VerdictCounts counts={counts} />
    </section>
  );
}
