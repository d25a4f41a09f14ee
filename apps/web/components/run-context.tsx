import type { Scorecard } from '@/lib/definitions';
import { engineName } from '@/lib/format';
import { docsLabel } from '@/lib/sets';

/**
 * What a reader must know before reading any number of a run: the corpus, its size, the baseline
 * and the commit. Every page header that shows a run's numbers carries this line.
 */
export function RunContext({ scorecard }: { scorecard: Scorecard }) {
  const { corpus, baseline, gitRevision } = scorecard.manifest;
  return (
    <p className="run-context" data-context={scorecard.runId}>
      <span>
        Corpus <strong>{corpus.name}</strong>
      </span>
      <span>
        <strong>{docsLabel(corpus.docs)}</strong>
      </span>
      <span>
        vs <strong>{engineName(baseline)}</strong>
        {baseline.topology && baseline.topology.nodes > 1 ? ` (${baseline.topology.nodes} nodes)` : ''}
      </span>
      <span>
        commit <code title={gitRevision}>{gitRevision.slice(0, 7)}</code>
      </span>
    </p>
  );
}
