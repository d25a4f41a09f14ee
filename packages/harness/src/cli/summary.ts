import pc from 'picocolors';
import type { RowResult, Scorecard, Verdict } from '../scorecard/schema.js';

const paint: Record<Verdict, (s: string) => string> = {
  WIN: pc.green,
  LOSE: pc.red,
  TIE: pc.yellow,
  'N/A': pc.dim,
};

function value(row: RowResult, side: 'candidate' | 'baseline'): string {
  const m = row[side];
  if (!m.supported) return 'unsupported';
  if (row.unit === 'docs/s') return m.value === undefined ? '-' : `${Math.round(m.value)} docs/s`;
  if (row.unit === 'bytes') return m.value === undefined ? '-' : `${(m.value / 1048576).toFixed(1)} MiB`;
  return m.p50 === undefined ? '-' : `${m.p50.toFixed(2)} ms`;
}

/** The end-of-run table for the terminal: one line per row, verdicts in colour. */
export function renderSummary(card: Scorecard): string {
  const header = ['row', 'candidate', 'baseline', 'ratio', '95% CI', 'verdict'];
  const body = card.rows.map((r) => [
    r.id,
    value(r, 'candidate'),
    value(r, 'baseline'),
    r.ratio === undefined ? '-' : `${r.ratio.toFixed(3)}x`,
    r.ci ? `[${r.ci[0].toFixed(3)}, ${r.ci[1].toFixed(3)}]` : '-',
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  const out = [pc.bold(line(header))];
  for (const [n, cells] of body.entries()) {
    const row = card.rows[n] as RowResult;
    const text = line(cells);
    const verdictAt = text.length - (widths[5] as number);
    out.push(text.slice(0, verdictAt) + paint[row.verdict](text.slice(verdictAt)));
    if (row.verdict !== 'TIE') out.push(pc.dim(`    ${row.reason}`));
  }
  const { WIN, LOSE, TIE } = card.counts;
  out.push(
    '',
    `${pc.green(`WIN ${WIN}`)}  ${pc.red(`LOSE ${LOSE}`)}  ${pc.yellow(`TIE ${TIE}`)}  ${pc.dim(`N/A ${card.counts['N/A']}`)}  (${card.status}, exit ${card.exitCode})`,
  );
  if (card.manifest.settings.aa === true) out.push(aaLine(card));
  return out.join('\n');
}

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
  return `A/A (OpenSearch vs OpenSearch): ${WIN} false WIN, ${LOSE} false LOSE of ${comparable} comparable rows (${rate})${rows.length > 0 ? `: ${rows.join(', ')}` : ''}`;
}
