import type { Verdict } from '@/lib/definitions';
import { VERDICT_MEANING } from '@/lib/format';

/**
 * A glyph repeats the verdict beside colour and text (▲ WIN, ▼ LOSE, = TIE, ? N/A), so no one has
 * to rely on colour alone. The stylesheet draws it (globals.css, `.badge-win::before`), with empty
 * alternative text, so a table of a hundred badges carries a hundred fewer elements to hydrate.
 */
const CLASS: Record<Verdict, string> = { WIN: 'win', LOSE: 'lose', TIE: 'tie', 'N/A': 'na' };

export function VerdictBadge({ verdict, reason }: { verdict: Verdict; reason?: string }) {
  return (
    <span className={`badge badge-${CLASS[verdict]}`} title={reason ?? VERDICT_MEANING[verdict]}>
      {verdict}
    </span>
  );
}

export function verdictClass(verdict: Verdict): string {
  return CLASS[verdict];
}
