import { KNN_LATENCY_ROW_ID, type RecallSideRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';
import { Rng } from '../rng.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { percentileSorted } from '../stats/percentile.js';
import { settleRow } from './decide.js';

export { KNN_LATENCY_ROW_ID };

export const KNN_RECALL_ROW_ID = 'knn.recall';

/**
 * Recall ratios within 1 +/- this are a TIE. Recall is a proportion near 1, where the latency
 * rows' 5% margin would be coarse (0.95 vs 1.0 is a real gap): one point of recall decides.
 */
export const RECALL_TIE_MARGIN = 0.01;

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Paired percentile bootstrap over queries: the same resampled queries for both engines, so the
 * interval reflects which queries are hard rather than each engine's luck on its own draw.
 * Returns the intervals of each side's mean recall and of their ratio (candidate / baseline).
 */
export function pairedRecallBootstrap(
  candidate: readonly number[],
  baseline: readonly number[],
  resamples: number,
  seed: number,
): { candidate: [number, number]; baseline: [number, number]; ratio: [number, number] } {
  const n = candidate.length;
  if (n === 0 || n !== baseline.length) throw new Error('paired bootstrap needs equal, non-empty samples');
  const rng = new Rng(seed);
  const c = new Float64Array(resamples);
  const b = new Float64Array(resamples);
  const r = new Float64Array(resamples);
  for (let s = 0; s < resamples; s++) {
    let sc = 0;
    let sb = 0;
    for (let i = 0; i < n; i++) {
      const j = rng.int(0, n - 1);
      sc += candidate[j] as number;
      sb += baseline[j] as number;
    }
    c[s] = sc / n;
    b[s] = sb / n;
    // Both zero is equal recall; only the candidate at zero is as bad as it gets.
    r[s] = sb === 0 ? (sc === 0 ? 1 : Number.POSITIVE_INFINITY) : sc / sb;
  }
  const ci = (xs: Float64Array): [number, number] => {
    xs.sort();
    return [percentileSorted(xs, 2.5), percentileSorted(xs, 97.5)];
  };
  return { candidate: ci(c), baseline: ci(b), ratio: ci(r) };
}

function side(raw: RecallSideRaw): SideMeasurement {
  const answered = raw.perQuery.filter((x) => !Number.isNaN(x));
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.perQuery.length,
    errors: raw.perQuery.length - answered.length,
  };
  if (raw.error) m.error = raw.error;
  if (answered.length > 0) m.value = round4(mean(answered));
  return m;
}

const fmtCi = (ci: [number, number]) => `[${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]`;

/**
 * The recall row: each engine's mean recall@k over the same queries, ratio candidate / baseline
 * (higher is better), a paired bootstrap interval, and decide.ts's rules with the recall margin,
 * so equal recall (both exact, say) is a TIE and not a WIN. Queries either engine failed are
 * left out of the comparison; failures beyond the collapse limit decide the row as they do for
 * latency rows.
 */
export function knnRecallRow(
  raws: { candidate: RecallSideRaw; baseline: RecallSideRaw },
  k: number,
  request: unknown,
  settings: Pick<RunSettings, 'seed' | 'bootstrapResamples' | 'collapseErrorRate'>,
): RowResult {
  const row: RowResult = {
    id: KNN_RECALL_ROW_ID,
    group: 'knn',
    family: 'knn',
    title: `kNN recall@${k} against exact neighbours`,
    unit: 'recall',
    betterIs: 'higher',
    request,
    candidate: side(raws.candidate),
    baseline: side(raws.baseline),
    verdict: 'N/A',
    reason: '',
  };
  const paired = raws.candidate.perQuery
    .map((c, i) => [c, raws.baseline.perQuery[i] ?? Number.NaN] as const)
    .filter(([c, b]) => !Number.isNaN(c) && !Number.isNaN(b));
  let detail = '';
  if (row.candidate.supported && row.baseline.supported && paired.length > 0) {
    const c = paired.map(([x]) => x);
    const b = paired.map(([, y]) => y);
    const seed = Rng.derive(settings.seed, 'bootstrap', KNN_RECALL_ROW_ID).int(1, 2 ** 30);
    const boot = pairedRecallBootstrap(c, b, settings.bootstrapResamples, seed);
    const [mc, mb] = [mean(c), mean(b)];
    const ratio = mb === 0 ? (mc === 0 ? 1 : Number.POSITIVE_INFINITY) : mc / mb;
    if (Number.isFinite(ratio) && Number.isFinite(boot.ratio[1])) {
      row.ratio = round4(ratio);
      row.ci = [round4(boot.ratio[0]), round4(boot.ratio[1])];
    }
    detail = `; recall@${k} candidate ${mc.toFixed(4)} ${fmtCi(boot.candidate)}, baseline ${mb.toFixed(4)} ${fmtCi(boot.baseline)} over ${paired.length} queries`;
  }
  settleRow(row, { tieMargin: RECALL_TIE_MARGIN, collapseErrorRate: settings.collapseErrorRate });
  row.reason += detail;
  return row;
}

/** A read-row result measured for kNN latency, filed under the kNN group. */
export function asKnnLatencyRow(row: RowResult): RowResult {
  return { ...row, group: 'knn' };
}
