import type { Verdict } from '@/lib/definitions';
import { VERDICT_MEANING } from '@/lib/format';

/** Glyphs repeat the verdict beside colour and text, so no one has to rely on colour alone. */
export const VERDICT_GLYPH: Record<Verdict, string> = { WIN: '▲', LOSE: '▼', TIE: '=', 'N/A': '?' };
const CLASS: Record<Verdict, string> = { WIN: 'win', LOSE: 'lose', TIE: 'tie', 'N/A': 'na' };

export function VerdictBadge({ verdict, reason }: { verdict: Verdict; reason?: string }) {
  return (
    <span className={`badge badge-${CLASS[verdict]}`} title={reason ?? VERDICT_MEANING[verdict]}>
      <span aria-hidden="true" className="badge-glyph">
        {VERDICT_GLYPH[verdict]}
      </span>
      {verdict}
    </span>
  );
}

export function verdictClass(verdict: Verdict): string {
  return CLASS[verdict];
}
