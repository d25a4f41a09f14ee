import type { ReadRowRaw } from '../model/raw.js';
import type { JudgeSettings } from '../model/settings.js';
import type { BaseComparison } from '../scorecard/schema.js';
import { medianInPlace, nestedRatioInterval, pairRounds } from '../stats/nestedInterval.js';
import { cpuRatio } from './cpuRatio.js';
import { roundSplit } from './decide.js';

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const fmt = (x: number) => x.toFixed(3);

/**
 * The gate's second comparison on a read row: this build's candidate against the candidate built
 * at the merge base, measured in the same forks and rounds (ratio = base / this build, > 1: this
 * build is faster). REGRESSED when latency or engine CPU per request is worse beyond the margin
 * with its whole interval (and most forks agree, for latency), and `blocking` when latency and
 * CPU are both worse that way and one of them is past the fail margin (the gate's exit 4 on one
 * row); IMPROVED in the mirror case;
 * SAME otherwise. CPU per request barely moves with scheduling noise, so it is the signal that
 * finds a small slowdown the latency interval cannot resolve.
 */
export function baseComparison(
  raw: ReadRowRaw,
  settings: Pick<JudgeSettings, 'confidence' | 'regressionMargin' | 'regressionFailMargin'>,
  baseRevision: string,
): BaseComparison | undefined {
  const base = raw.base;
  if (!base) return undefined;
  const na = (reason: string): BaseComparison => ({ baseRevision, verdict: 'N/A', reason });
  if (!base.supported) return na(base.error ?? 'the merge-base build could not run the row');
  if (!raw.candidate.supported) return na('this build could not run the row');
  const ok = (s: { outcome: string }) => s.outcome === 'ok';
  const rounds = pairRounds(base.timed.filter(ok), raw.candidate.timed.filter(ok), (s) => s.latencyMs);
  if (!rounds.some((r) => r.numerator.length > 0 && r.denominator.length > 0))
    return na('no successful timed requests on one of the builds');
  const ci = nestedRatioInterval(rounds, medianInPlace, settings.confidence);
  const cpu = cpuRatio({ ...raw, baseline: base }, settings.confidence);
  const out: BaseComparison = {
    baseRevision,
    ratio: round3(ci.estimate),
    ...(Number.isFinite(ci.high) ? { ci: [round3(ci.low), round3(ci.high)] as [number, number] } : {}),
    verdict: 'SAME',
    reason: '',
  };
  if (cpu) {
    out.cpuRatio = round3(cpu.estimate);
    if (Number.isFinite(cpu.high)) out.cpuCi = [round3(cpu.low), round3(cpu.high)];
  }
  const worseAt = 1 / (1 + settings.regressionMargin);
  const betterAt = 1 + settings.regressionMargin;
  const units = ci.level === 'forks' ? ci.forkRatios : ci.roundRatios;
  const split = roundSplit(units, ci.level === 'forks' ? 'forks' : 'paired rounds');
  const latency = `latency ${fmt(ci.estimate)}x [${fmt(ci.low)}, ${fmt(ci.high)}]`;
  const cpuText = cpu ? `, CPU per request ${fmt(cpu.estimate)}x [${fmt(cpu.low)}, ${fmt(cpu.high)}]` : '';
  const latencyWorse = ci.high < 1 && ci.estimate <= worseAt && split.agrees('baseline');
  const latencyBetter = ci.low > 1 && ci.estimate >= betterAt && split.agrees('candidate');
  const cpuWorse = cpu !== undefined && cpu.high < 1 && cpu.estimate <= worseAt;
  const cpuBetter = cpu !== undefined && cpu.low > 1 && cpu.estimate >= betterAt;
  const vs = `against ${baseRevision.slice(0, 7)} (> 1: this build faster; margin ${(settings.regressionMargin * 100).toFixed(0)}%)`;
  if (latencyWorse || cpuWorse) {
    const failAt = 1 / (1 + settings.regressionFailMargin);
    const failPct = `${(settings.regressionFailMargin * 100).toFixed(0)}%`;
    out.verdict = 'REGRESSED';
    // One row fails the gate alone only when both signals agree (where CPU is measured) and one
    // of them is past the fail margin: an A/A under load flagged metric.max at 0.774x CPU per
    // request while its latency was 1.023x. A single signal that far out happens by chance; two
    // that agree do not, and a real slowdown of one family moves both (6daa13d: 0.12x latency).
    const past = ci.estimate <= failAt || (cpu !== undefined && cpu.estimate <= failAt);
    out.blocking = past && latencyWorse && (cpu === undefined || cpuWorse);
    const both = cpu === undefined ? 'latency' : 'latency and CPU';
    const blocks = out.blocking
      ? `; ${both} worse, past the ${failPct} fail margin: this row alone fails the gate`
      : `; listed, not failed alone (that takes ${both} worse and one past ${failPct})`;
    out.reason = `${latency}${cpuText} ${vs}: ${[latencyWorse ? 'latency' : '', cpuWorse ? 'CPU' : ''].filter(Boolean).join(' and ')} worse beyond the margin with the whole interval${blocks}`;
  } else if (latencyBetter || cpuBetter) {
    out.verdict = 'IMPROVED';
    out.reason = `${latency}${cpuText} ${vs}: ${[latencyBetter ? 'latency' : '', cpuBetter ? 'CPU' : ''].filter(Boolean).join(' and ')} better beyond the margin`;
  } else out.reason = `${latency}${cpuText} ${vs}: within the margin or the interval`;
  return out;
}
