import { coverageAgainst } from '../scorecard/coverage.js';
import type { RowResult, Scorecard } from '../scorecard/schema.js';
import { comparable } from './comparable.js';
import { renderSummary } from './render.js';
import type {
  BaseChange,
  ChangedRow,
  Coverage,
  FailingRow,
  GateExitCode,
  GateInput,
  GateResult,
  OverallChange,
  WaivedRow,
} from './result.js';

export type {
  BaseChange,
  ChangedRow,
  Coverage,
  FailingRow,
  GateExitCode,
  GateInput,
  GateResult,
  OverallChange,
  WaivedRow,
};

import { judgeCounts } from './counts.js';
import { isExpired, isIsoDay, type Waiver } from './waivers.js';

function runFailure(card: Scorecard): string | undefined {
  if (card.status === 'failed') return card.failure ?? 'the run failed';
  if (card.status === 'partial') return card.failure ?? 'the run was interrupted and is partial';
  if (card.exitCode === 2) return card.failure ?? 'the run exited with status 2';
  return undefined;
}

function coverage(card: Scorecard, previous: Scorecard | undefined): Coverage {
  const naNow = card.rows.filter((r) => r.verdict === 'N/A').length;
  const none = { naBefore: 0, naNow, missingRows: [], newlyNA: [], dropped: false };
  if (!previous) return { ...none, compared: false, note: 'no previous run to compare with' };
  if (!comparable(card, previous)) {
    const p = previous.manifest.corpus;
    const c = card.manifest.corpus;
    return {
      ...none,
      compared: false,
      note: `previous run ${previous.runId} used ${p.name} with ${p.docs} docs (families ${String(previous.manifest.settings?.families ?? '*')}) against ${previous.manifest.baseline.product}, this run ${c.name} with ${c.docs} docs (families ${String(card.manifest.settings?.families ?? '*')}) against ${card.manifest.baseline.product}: coverage not compared`,
    };
  }
  const now = new Map(card.rows.map((r) => [r.id, r]));
  const shared = coverageAgainst(card, previous);
  const newlyNA = previous.rows
    .filter((r) => r.verdict !== 'N/A' && now.get(r.id)?.verdict === 'N/A')
    .map((r) => r.id);
  return {
    compared: true,
    naBefore: shared.previousNA,
    naNow,
    missingRows: shared.missingRows,
    newlyNA,
    dropped: shared.fell,
  };
}

function changedRows(card: Scorecard, previous: Scorecard | undefined): ChangedRow[] {
  if (!previous) return [];
  const before = new Map(previous.rows.map((r) => [r.id, r.verdict]));
  const changed: ChangedRow[] = [];
  for (const row of card.rows) {
    const from = before.get(row.id);
    if (from === undefined || from === row.verdict) continue;
    const flip = (from === 'WIN' && row.verdict === 'LOSE') || (from === 'LOSE' && row.verdict === 'WIN');
    changed.push({ id: row.id, title: row.title, from, to: row.verdict, flip, reason: row.reason });
  }
  // Flips first: they are the changes a reviewer must look at; otherwise keep scorecard order.
  return changed.sort((a, b) => Number(b.flip) - Number(a.flip));
}

/**
 * Rows whose candidate moved against the merge-base build, CodSpeed-style: regressions (worst
 * first) and improvements (best first). The size is the further-from-1 of the latency and CPU
 * ratios that cleared the margin.
 */
function baseChanges(card: Scorecard, waivers: Map<string, Waiver>, today: string) {
  const changes: BaseChange[] = [];
  for (const row of card.rows) {
    const v = row.versusBase;
    if (!v || (v.verdict !== 'REGRESSED' && v.verdict !== 'IMPROVED')) continue;
    const ratios = [v.ratio, v.cpuRatio].filter((x): x is number => x !== undefined);
    const size = v.verdict === 'REGRESSED' ? Math.min(...ratios) : Math.max(...ratios);
    const blocking = v.verdict === 'REGRESSED' && v.blocking === true;
    const change: BaseChange = {
      id: row.id,
      title: row.title,
      verdict: v.verdict,
      size,
      blocking,
      reason: v.reason,
    };
    const waiver = waivers.get(row.id);
    if (waiver && v.verdict === 'REGRESSED') change.waiver = waiver;
    changes.push(change);
  }
  const live = (c: BaseChange) => c.waiver === undefined || isExpired(c.waiver, today);
  const failing = (c: BaseChange) => c.blocking && live(c);
  const regressions = changes
    .filter((c) => c.verdict === 'REGRESSED')
    .sort((a, b) => Number(failing(b)) - Number(failing(a)) || a.size - b.size);
  const improvements = changes.filter((c) => c.verdict === 'IMPROVED').sort((a, b) => b.size - a.size);
  return { regressions, improvements };
}

const percent = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)}%`;

/** The row id a regression waiver names to cover the read rows' regression taken together. */
export const OVERALL_ROW = 'overall';

function overallChange(card: Scorecard, waivers: Map<string, Waiver>): OverallChange | undefined {
  const o = card.versusBaseOverall;
  if (!o) return undefined;
  const waiver = waivers.get(OVERALL_ROW);
  return { verdict: o.verdict, reason: o.reason, ...(waiver && o.verdict === 'REGRESSED' ? { waiver } : {}) };
}

/** Decide the gate for one run. Pure: same input, same result, no I/O. */
export function evaluateGate(input: GateInput): GateResult {
  const { scorecard: card, previous, waivers, today } = input;
  if (!isIsoDay(today)) throw new Error(`evaluateGate: today must be YYYY-MM-DD, got "${today}"`);
  const byRow = new Map(waivers.filter((w) => w.kind === 'lose').map((w) => [w.row, w]));
  const regressionWaiver = new Map(waivers.filter((w) => w.kind === 'regression').map((w) => [w.row, w]));
  const loses: RowResult[] = card.rows.filter((r) => r.verdict === 'LOSE');

  const failingRows: FailingRow[] = [];
  const waivedRows: WaivedRow[] = [];
  for (const row of loses) {
    const waiver = byRow.get(row.id);
    if (waiver && !isExpired(waiver, today)) {
      waivedRows.push({ id: row.id, title: row.title, reason: row.reason, waiver });
    } else {
      const failing: FailingRow = { id: row.id, title: row.title, reason: row.reason };
      if (waiver) failing.expiredWaiver = waiver;
      failingRows.push(failing);
    }
  }
  const { regressions, improvements } = baseChanges(card, regressionWaiver, today);
  const unwaivedRegressions = regressions.filter(
    (r) => r.blocking && (r.waiver === undefined || isExpired(r.waiver, today)),
  );
  const overall = overallChange(card, regressionWaiver);
  const overallFails =
    overall?.verdict === 'REGRESSED' && (overall.waiver === undefined || isExpired(overall.waiver, today));
  const counts = input.counts ? judgeCounts(input.counts, waivers, today) : undefined;
  const failingCounts = counts?.regressions.filter((r) => r.failing) ?? [];
  const used = {
    lose: new Set(loses.map((r) => r.id)),
    regression: new Set(regressions.map((r) => r.id)),
    count: new Set(counts?.regressions.map((r) => r.row) ?? []),
  };
  if (overall?.verdict === 'REGRESSED') used.regression.add(OVERALL_ROW);
  const expiredWaivers = waivers.filter((w) => isExpired(w, today));
  const unusedWaivers = waivers.filter((w) => !isExpired(w, today) && !used[w.kind].has(w.row));
  const cov = coverage(card, previous);
  const failure = runFailure(card);

  let exitCode: GateExitCode;
  let headline: string;
  if (failure !== undefined) {
    exitCode = 2;
    headline = `run failed: ${failure}`;
  } else if (failingRows.length > 0) {
    exitCode = 1;
    const expired = failingRows.filter((r) => r.expiredWaiver).length;
    headline = `${failingRows.length} LOSE row${failingRows.length === 1 ? '' : 's'} not waived${expired ? ` (${expired} with an expired waiver)` : ''}`;
  } else if (unwaivedRegressions.length > 0 || overallFails || failingCounts.length > 0) {
    exitCode = 4;
    const at = card.manifest.base?.revision.slice(0, 7) ?? input.counts?.baseRevision.slice(0, 7) ?? '';
    const parts: string[] = [];
    const worstCount = failingCounts[0];
    if (worstCount)
      parts.push(
        `${failingCounts.length} row${failingCounts.length === 1 ? '' : 's'} counted ${(100 * (input.counts?.threshold ?? 0)).toFixed(0)}% or more instructions per request than at ${at}, worst ${worstCount.row} ${percent(worstCount.change ?? 0)}`,
      );
    if (overallFails)
      parts.push(`the read rows regressed together against the merge-base build ${at} (${overall?.reason})`);
    const worst = unwaivedRegressions[0];
    if (worst)
      parts.push(
        `${unwaivedRegressions.length} row${unwaivedRegressions.length === 1 ? '' : 's'} regressed past the fail margin against ${at}, worst ${worst.id} ${worst.size.toFixed(3)}x`,
      );
    headline = parts.join('; ');
  } else if (cov.dropped) {
    exitCode = 3;
    const parts = [];
    if (cov.naNow > cov.naBefore) parts.push(`N/A rows ${cov.naBefore} -> ${cov.naNow}`);
    if (cov.missingRows.length > 0) parts.push(`${cov.missingRows.length} row(s) missing`);
    headline = `coverage fell against ${previous?.runId}: ${parts.join(', ')}`;
  } else {
    exitCode = 0;
    headline = waivedRows.length > 0 ? `passed with ${waivedRows.length} waived LOSE row(s)` : 'passed';
  }

  const result: Omit<GateResult, 'summaryMarkdown'> = {
    exitCode,
    headline,
    regressions,
    ...(overall ? { overall } : {}),
    improvements,
    ...(counts ? { counts } : {}),
    failingRows,
    changedRows: changedRows(card, previous),
    waivedRows,
    expiredWaivers,
    unusedWaivers,
    coverage: cov,
  };
  if (failure !== undefined) result.runFailure = failure;
  return { ...result, summaryMarkdown: renderSummary(card, previous, result) };
}
