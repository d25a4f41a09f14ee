import pc from 'picocolors';
import { aaLine } from '../scorecard/aa.js';
import type { RowResult, Scorecard, Verdict } from '../scorecard/schema.js';

export { aaLine };

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

/**
 * Short flags for what a row's numbers cannot say on their own: below the harness's resolution,
 * a collapsed or saturated engine, a suspected cache, extra rounds. c: candidate, b: baseline.
 */
export function rowNotes(row: RowResult): string {
  const notes: string[] = [];
  const sides = (pick: (m: RowResult['candidate']) => boolean | undefined) =>
    (['candidate', 'baseline'] as const)
      .filter((role) => pick(row[role]))
      .map((role) => role[0])
      .join('+');
  if (row.belowResolution) notes.push('below resolution');
  const collapsed = sides((m) => m.collapsed);
  if (collapsed) notes.push(`collapsed ${collapsed}`);
  const saturated = sides((m) => m.saturated);
  if (saturated) notes.push(`saturated ${saturated}`);
  const cache = sides((m) => m.cache?.suspected);
  if (cache) notes.push(`cache? ${cache}`);
  if (row.remeasured) notes.push(`${row.rounds} rounds`);
  return notes.join(', ');
}

/** The end-of-run table for the terminal: one line per row, verdicts in colour. */
export function renderSummary(card: Scorecard): string {
  const header = ['row', 'candidate', 'baseline', 'ratio', '95% CI', 'verdict', 'notes'];
  const body = card.rows.map((r) => [
    r.id,
    value(r, 'candidate'),
    value(r, 'baseline'),
    r.ratio === undefined ? '-' : `${r.ratio.toFixed(3)}x`,
    r.ci ? `[${r.ci[0].toFixed(3)}, ${r.ci[1].toFixed(3)}]` : '-',
    r.verdict,
    rowNotes(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const pad = (c: string, i: number) => c.padEnd(widths[i] as number);
  const out = [pc.bold(header.map(pad).join('  ').trimEnd())];
  for (const [n, cells] of body.entries()) {
    const row = card.rows[n] as RowResult;
    const text = cells.map((c, i) =>
      i === 5 ? paint[row.verdict](pad(c, i)) : i === 6 ? pc.dim(c) : pad(c, i),
    );
    out.push(text.join('  ').trimEnd());
    if (row.verdict !== 'TIE') out.push(pc.dim(`    ${row.reason}`));
  }
  const { WIN, LOSE, TIE } = card.counts;
  out.push(
    '',
    `${pc.green(`WIN ${WIN}`)}  ${pc.red(`LOSE ${LOSE}`)}  ${pc.yellow(`TIE ${TIE}`)}  ${pc.dim(`N/A ${card.counts['N/A']}`)}  (${card.status}, exit ${card.exitCode})`,
  );
  if (card.floor) out.push(pc.dim(floorLine(card.floor)));
  if (card.manifest.settings.aa === true) out.push(aaLine(card));
  return out.join('\n');
}

/** The harness's own latency against a null server: every read row's p50 includes this much. */
export function floorLine(floor: NonNullable<Scorecard['floor']>): string {
  return `floor (harness vs a null server at ${floor.rate} req/s): p50 ${floor.p50.toFixed(3)} ms, p99 ${floor.p99.toFixed(3)} ms, send lag p50 ${floor.sendLagP50.toFixed(3)} / p99 ${floor.sendLagP99.toFixed(3)} ms; rows with both p50 under ${(2 * floor.p50).toFixed(3)} ms are below resolution`;
}
