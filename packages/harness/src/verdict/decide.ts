import type { Mismatch, RowResult, SideMeasurement, Verdict } from '../scorecard/schema.js';

export interface VerdictInput {
  candidate: SideMeasurement;
  baseline: SideMeasurement;
  /** > 1 means the candidate is better. */
  ratio?: number;
  ci?: [number, number];
  mismatch?: Mismatch;
  /** e.g. 0.05: the ratio must reach 1.05 (WIN) or 1/1.05 (LOSE). */
  tieMargin: number;
  /** The interval's two-sided confidence, for the reason (default 0.95). */
  confidence?: number;
  /** e.g. 0.01: above this failed+dropped share a side has collapsed. */
  collapseErrorRate: number;
  /**
   * Harness send-lag p99 above this on BOTH sides means the machine could not keep the schedule
   * whichever engine ran (ambient overload): N/A. Above it on one side only, that engine most
   * likely saturated the machine itself; the lag stays in its latency and the reason says so.
   */
  maxSendLagP99Ms?: number;
  /** Both engines' p50 within 2x of the harness floor (readRowResult.ts): the statistics cannot be trusted. */
  belowResolution?: boolean;
  /** The floor p50 (ms), for the below-resolution reason. */
  floorP50?: number;
  /**
   * Response pairs whose results were compared (read rows: the probe plus sampled timed
   * responses). Undefined for rows that check their result another way (ingest: `_count`).
   */
  signalChecks?: number;
  /**
   * The ratio within each paired round (read and mixed rows). A WIN or LOSE must also be the
   * direction of a strict majority of them: with few rounds an interval can clear 1 on the
   * strength of one extreme round, and the rounds themselves are the paired evidence.
   */
  roundRatios?: number[];
  /** What the per-unit ratios are of, for the reason: 'paired rounds' (default) or 'forks'. */
  unitName?: string;
}

export interface Decision {
  verdict: Verdict;
  reason: string;
}

const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 2 : 1)}%`;
const fmt = (x: number) => x.toFixed(3);

/** A side has collapsed: flagged (e.g. the engine crashed during the row) or over the failure limit. */
export function collapsed(side: SideMeasurement, collapseErrorRate: number): boolean {
  return side.collapsed === true || failureRate(side) > collapseErrorRate;
}

/** Failed plus dropped requests as a share of the timed requests. */
export function failureRate(side: SideMeasurement): number {
  const bad = side.errors + (side.dropped ?? 0);
  return side.samples > 0 ? bad / side.samples : bad > 0 ? 1 : 0;
}

/**
 * The verdict for one row, with the reason spelled out. Order matters: comparability first
 * (unsupported, different answers, a harness that could not keep its schedule), then collapse
 * under load, then the statistics.
 */
export function decideVerdict(input: VerdictInput): Decision {
  const decision = decideCore(input);
  const max = input.maxSendLagP99Ms;
  if (max === undefined || decision.verdict === 'N/A') return decision;
  const lagging = (['candidate', 'baseline'] as const).filter((role) => (input[role].sendLagP99 ?? 0) > max);
  if (lagging.length !== 1) return decision;
  const role = lagging[0] as 'candidate' | 'baseline';
  const lag = (input[role].sendLagP99 ?? 0).toFixed(1);
  return {
    ...decision,
    reason: `${decision.reason} (harness send lag p99 ${lag} ms while the ${role} ran: it saturated the machine)`,
  };
}

function decideCore(input: VerdictInput): Decision {
  const {
    candidate: c,
    baseline: b,
    ratio,
    ci,
    mismatch,
    tieMargin,
    collapseErrorRate,
    maxSendLagP99Ms,
  } = input;
  if (!c.supported || !b.supported) {
    const parts = [];
    if (!c.supported) parts.push(`candidate: ${c.error ?? 'unsupported'}`);
    if (!b.supported) parts.push(`baseline: ${b.error ?? 'unsupported'}`);
    return { verdict: 'N/A', reason: `not comparable, ${parts.join('; ')}` };
  }
  if (mismatch) return { verdict: 'N/A', reason: `results differ: ${mismatch.summary}` };
  if (
    maxSendLagP99Ms !== undefined &&
    (c.sendLagP99 ?? 0) > maxSendLagP99Ms &&
    (b.sendLagP99 ?? 0) > maxSendLagP99Ms
  ) {
    return {
      verdict: 'N/A',
      reason: `harness fell behind its schedule on both sides (send lag p99 ${(c.sendLagP99 ?? 0).toFixed(1)} / ${(b.sendLagP99 ?? 0).toFixed(1)} ms > ${maxSendLagP99Ms} ms): the machine is overloaded`,
    };
  }

  const cRate = failureRate(c);
  const bRate = failureRate(b);
  const limit = pct(collapseErrorRate);
  const cDown = collapsed(c, collapseErrorRate);
  const bDown = collapsed(b, collapseErrorRate);
  const how = (side: SideMeasurement, rate: number) =>
    rate > collapseErrorRate
      ? `${pct(rate)} of requests failed or were dropped (limit ${limit})`
      : (side.error ?? 'it failed the row');
  if (cDown && bDown) {
    return {
      verdict: 'N/A',
      reason: `both collapsed: candidate ${how(c, cRate)}; baseline ${how(b, bRate)}`,
    };
  }
  if (cDown) return { verdict: 'LOSE', reason: `candidate collapsed: ${how(c, cRate)}` };
  if (bDown) {
    // The baseline failing is only a candidate win if the candidate's answers were right: a
    // fast wrong answer must not WIN. A read row needs at least one timed response pair checked
    // equal beside the probe (a collapsed baseline may have answered too little to compare).
    if (input.signalChecks !== undefined && input.signalChecks < 2) {
      return {
        verdict: 'N/A',
        reason: `baseline collapsed (${how(b, bRate)}), but no timed candidate answer could be checked against it`,
      };
    }
    return { verdict: 'WIN', reason: `baseline collapsed: ${how(b, bRate)}` };
  }
  if (ratio === undefined || !Number.isFinite(ratio)) {
    return { verdict: 'N/A', reason: 'no ratio: a side has no successful timed samples' };
  }
  if (ci === undefined) {
    // One fork of one round: one replication, no spread to build an interval from.
    return {
      verdict: 'TIE',
      reason: `ratio ${fmt(ratio)} from a single replication: no interval, no verdict`,
    };
  }

  const level = `${Math.round((input.confidence ?? 0.95) * 1000) / 10}%`;
  const stated = `ratio ${fmt(ratio)}, ${level} CI [${fmt(ci[0])}, ${fmt(ci[1])}]`;
  if (input.belowResolution) {
    // Both engines answer within 2x of what the harness measures against a server that does
    // nothing: most of each latency is the harness, client and kernel, the same for both, so the
    // ratio is compressed toward 1 and its interval reflects harness jitter more than engines.
    // The even-handed call is TIE both ways: a LOSE would fail a pull request on harness noise,
    // a WIN would claim a speed-up the instrument cannot see. The ratio stays on the row.
    const floor = input.floorP50 === undefined ? '' : ` (${input.floorP50.toFixed(3)} ms)`;
    return {
      verdict: 'TIE',
      reason: `below resolution: both p50 within 2x of the harness floor${floor}; ${stated}`,
    };
  }

  const winAt = 1 + tieMargin;
  const loseAt = 1 / (1 + tieMargin);
  const split = roundSplit(input.roundRatios, input.unitName);
  if (ci[0] > 1 && ratio >= winAt && !split.agrees('candidate')) {
    return { verdict: 'TIE', reason: `${stated} favours the candidate, but ${split.describe('candidate')}` };
  }
  if (ci[1] < 1 && ratio <= loseAt && !split.agrees('baseline')) {
    return { verdict: 'TIE', reason: `${stated} favours the baseline, but ${split.describe('baseline')}` };
  }
  if (ci[0] > 1 && ratio >= winAt) {
    const cBad = c.errors + (c.dropped ?? 0);
    const bBad = b.errors + (b.dropped ?? 0);
    if (cBad > bBad) {
      return {
        verdict: 'TIE',
        reason: `${stated} favours the candidate, but it had more failed requests (${cBad} vs ${bBad})`,
      };
    }
    return {
      verdict: 'WIN',
      reason: `${stated}: interval above 1 and ratio >= ${fmt(winAt)}${split.agreeing('candidate')}`,
    };
  }
  if (ci[1] < 1 && ratio <= loseAt) {
    return {
      verdict: 'LOSE',
      reason: `${stated}: interval below 1 and ratio <= ${fmt(loseAt)}${split.agreeing('baseline')}`,
    };
  }
  const why =
    ci[0] <= 1 && ci[1] >= 1 ? 'interval contains 1' : `ratio within the ${pct(tieMargin)} tie margin`;
  return { verdict: 'TIE', reason: `${stated}: ${why}` };
}

/** How the per-unit ratios split: a direction needs a strict majority of the units (absent: no rule). */
export function roundSplit(roundRatios: readonly number[] | undefined, unitName = 'paired rounds') {
  const all = roundRatios ?? [];
  const count = (who: 'candidate' | 'baseline') =>
    all.filter((r) => (who === 'candidate' ? r > 1 : r < 1)).length;
  return {
    agrees: (who: 'candidate' | 'baseline') => all.length === 0 || count(who) * 2 > all.length,
    /** "; 3 of 4 paired rounds agree", or nothing without per-round ratios. */
    agreeing: (who: 'candidate' | 'baseline') =>
      all.length === 0 ? '' : `; ${count(who)} of ${all.length} ${unitName} agree`,
    describe: (who: 'candidate' | 'baseline') =>
      `only ${count(who)} of ${all.length} ${unitName} do (their ratios ${all.map(fmt).join(', ')})`,
  };
}

/**
 * Decides a measured row's verdict from its own sides, ratio, interval and mismatch, and writes
 * it onto the row. An N/A row keeps no ratio or interval: there is nothing to compare.
 */
export function settleRow(
  row: RowResult,
  rules: Pick<
    VerdictInput,
    'tieMargin' | 'collapseErrorRate' | 'maxSendLagP99Ms' | 'floorP50' | 'confidence'
  >,
): RowResult {
  const decision = decideVerdict({
    candidate: row.candidate,
    baseline: row.baseline,
    ratio: row.ratio,
    ci: row.ci,
    mismatch: row.mismatch,
    belowResolution: row.belowResolution,
    signalChecks: row.signalChecks,
    // Forks when the row ran in several: they are the replications the interval rests on.
    roundRatios: row.forkRatios ?? row.roundRatios,
    unitName: row.forkRatios ? 'forks' : 'paired rounds',
    ...rules,
  });
  row.verdict = decision.verdict;
  row.reason = decision.reason;
  if (row.verdict === 'N/A') {
    delete row.ratio;
    delete row.ci;
    delete row.roundRatios;
    delete row.forkRatios;
  }
  return row;
}
