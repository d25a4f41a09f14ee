import type { Scorecard } from './schema.js';

/**
 * A/A: both sides are the same engine, so WIN and LOSE are false positives of the verdict rule
 * on this machine; the share of comparable rows they make up is the rule's false-verdict rate.
 */
export function aaLine(card: Scorecard): string {
  const { WIN, LOSE, TIE } = card.counts;
  const comparable = WIN + LOSE + TIE;
  const rate = comparable > 0 ? `${(((WIN + LOSE) / comparable) * 100).toFixed(1)}%` : 'n/a';
  const rows = card.rows
    .filter((r) => r.verdict === 'WIN' || r.verdict === 'LOSE')
    .map((r) => `${r.id} ${r.verdict}`);
  const twin = card.manifest.settings.aa === 'candidate' ? card.manifest.baseline : card.manifest.candidate;
  return `A/A (${twin.product.replace(' (A/A twin)', '')} against itself): ${WIN} false WIN, ${LOSE} false LOSE of ${comparable} comparable rows (${rate})${rows.length > 0 ? `: ${rows.join(', ')}` : ''}`;
}
