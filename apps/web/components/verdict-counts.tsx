import type { Verdict } from '@/lib/definitions';
import { VERDICT_MEANING } from '@/lib/format';
import { VERDICT_ORDER } from '@/lib/prepare';
import { verdictClass } from './verdict-badge';

/** The headline: how many rows of the run got each verdict. */
export function VerdictCounts({ counts, total }: { counts: Record<Verdict, number>; total?: number }) {
  return (
    <ul
      className="counts"
      aria-label={total === undefined ? 'Verdict counts' : `Verdict counts of ${total} rows`}
    >
      {VERDICT_ORDER.map((verdict) => (
        <li key={verdict} className={`count count-${verdictClass(verdict)}`} data-testid={`count-${verdict}`}>
          <span className="count-label">{verdict}</span>
          <span className="count-value" data-testid={`count-${verdict}-value`}>
            {counts[verdict]}
          </span>
          <span className="count-meaning">{VERDICT_MEANING[verdict]}</span>
        </li>
      ))}
    </ul>
  );
}
