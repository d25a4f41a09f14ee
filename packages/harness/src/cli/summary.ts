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
  const confidence =
    typeof card.manifest.settings.confidence === 'number' ? card.manifest.settings.confidence : 0.95;
  const header = [
    'row',
    'candidate',
    'baseline',
    'ratio',
    `${Math.round(confidence * 1000) / 10}% CI`,
    'verdict',
    'notes',
  ];
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
  if (card.manifest.settings.aa) out.push(aaLine(card));
  return out.join('\n');
}

/** The harness's own latency against a null server: every read row's p50 includes this much. */
export function floorLine(floor: NonNullable<Scorecard['floor']>): string {
  return `floor (harness vs a null server at ${floor.rate} req/s): p50 ${floor.p50.toFixed(3)} ms, p99 ${floor.p99.toFixed(3)} ms, send lag p50 ${floor.sendLagP50.toFixed(3)} / p99 ${floor.sendLagP99.toFixed(3)} ms; rows with both p50 under ${(2 * floor.p50).toFixed(3)} ms are below resolution`;
}

/**
 * The last lines of a run a person reads: the verdict in one line, every row that lost (and every
 * regression against a merge-base build), and what to do next. A LOSE is a finding, not a crash:
 * it ends the run's output instead of npm's error block.
 */
export function renderOutcome(card: Scorecard, scorecardDir: string): string {
  const { WIN, LOSE, TIE } = card.counts;
  const counts = `WIN ${WIN}, LOSE ${LOSE}, TIE ${TIE}, N/A ${card.counts['N/A']}`;
  const lost = card.rows.filter((r) => r.verdict === 'LOSE');
  // Only regressions that fail the run (exit 4) are shown as failures; smaller ones are in the card.
  const regressed = card.rows.filter((r) => r.versusBase?.verdict === 'REGRESSED' && r.versusBase.blocking);
  const overall = card.versusBaseOverall?.verdict === 'REGRESSED' ? card.versusBaseOverall : undefined;
  const out = [''];
  if (card.status !== 'complete')
    out.push(pc.red(pc.bold(`The run ${card.status}: ${card.failure ?? 'see above'} (${counts}).`)));
  else if (lost.length === 0 && regressed.length === 0 && !overall)
    out.push(pc.green(pc.bold(`No LOSE: ${counts}.`)));
  else {
    out.push(
      pc.red(
        pc.bold(
          `${lost.length} LOSE${regressed.length > 0 || overall ? `, regressed against ${card.manifest.base?.revision.slice(0, 7)} (${[overall ? 'all rows together' : '', regressed.length > 0 ? `${regressed.length} row${regressed.length === 1 ? '' : 's'} past the fail margin` : ''].filter(Boolean).join(', ')})` : ''}: ${counts}.`,
        ),
      ),
    );
    for (const r of lost) out.push(pc.red(`  LOSE ${r.id}: ${r.reason}`));
    for (const r of regressed) out.push(pc.red(`  REGRESSED ${r.id}: ${r.versusBase?.reason}`));
    if (overall) out.push(pc.red(`  REGRESSED all read rows together: ${overall.reason}`));
    // Bisect and re-measuring alone are for read rows (one family each); ingest, disk and
    // memory rows are whole-run measurements.
    const read = (r: RowResult) => ['query', 'metric', 'bucket', 'feature', 'pipeline'].includes(r.group);
    const first = ([...regressed, ...lost].find(read) ?? lost[0] ?? regressed[0]) as RowResult;
    out.push('', 'Next:');
    if (read(first))
      out.push(
        `  npm run bisect -- --row ${first.id} --good <a revision where it did not lose>   finds the commit that made it slower`,
        `  npm run bench -- --families '${first.id}'   re-measures that row alone`,
      );
    out.push(`  npm run web, then /rows/${first.id}/   its latency, CPU and history`);
  }
  out.push(`Scorecard: ${scorecardDir}/SCORECARD.md (exit status for scripts: ${card.exitCode})`);
  return out.join('\n');
}
