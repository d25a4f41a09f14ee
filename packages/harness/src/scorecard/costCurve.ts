import type { CostCurve, RowResult, Scorecard, SideMeasurement } from './schema.js';

/**
 * The cost curve of a pass set (`--docs 100k,1m`): for each latency row of the last pass, each
 * engine's p50 and CPU per request at every size, so a reader sizing a cluster sees how each
 * engine's cost grows with the corpus, not only who wins at one size. `passes` are the set's
 * scorecards in pass order (earlier published runs given with --cost-curve-with first); fewer
 * than two passes have no curve.
 */
export function costCurveOf(passes: readonly Scorecard[]): CostCurve | undefined {
  const last = passes.at(-1);
  if (!last || passes.length < 2) return undefined;
  const byId = passes.map((card) => new Map(card.rows.map((r) => [r.id, r])));
  const at = (id: string, pick: (row: RowResult) => SideMeasurement, value: 'p50' | 'cpuMsPerRequest') =>
    byId.map((rows) => {
      const row = rows.get(id);
      const side = row ? pick(row) : undefined;
      const v = side?.supported ? side[value] : undefined;
      return v === undefined || !Number.isFinite(v) ? null : v;
    });
  return {
    docs: passes.map((card) => card.manifest.corpus.docs),
    runIds: passes.map((card) => card.runId),
    loads: passes.map((card) => ({
      rate: Number(card.manifest.settings.rate),
      iterations: Number(card.manifest.settings.iterations),
    })),
    rows: last.rows
      .filter((r) => r.unit === 'ms')
      .map((r) => ({
        id: r.id,
        candidateP50: at(r.id, (x) => x.candidate, 'p50'),
        baselineP50: at(r.id, (x) => x.baseline, 'p50'),
        candidateCpuMs: at(r.id, (x) => x.candidate, 'cpuMsPerRequest'),
        baselineCpuMs: at(r.id, (x) => x.baseline, 'cpuMsPerRequest'),
      })),
  };
}

/** Last over first of a series, when both ends were measured: how many times the cost grew. */
export function growth(values: readonly (number | null)[]): number | undefined {
  const first = values[0];
  const last = values.at(-1);
  return first == null || last == null || first <= 0 ? undefined : last / first;
}

/**
 * Each size's read load in words when the sizes ran at different loads, else nothing: a row that
 * saturated an engine has its queue in its p50, so across such sizes only CPU per request compares.
 * SCORECARD.md and the site say it from this one place.
 */
export function differingLoads(curve: Pick<CostCurve, 'loads'>): string[] {
  const count = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const words = (curve.loads ?? []).map(
    (l) => `${count(l.rate)} req/s with ${count(l.iterations)} timed requests per row`,
  );
  return new Set(words).size > 1 ? words : [];
}
