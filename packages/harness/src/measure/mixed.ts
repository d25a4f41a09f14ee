import type { PreparedCorpus } from '../corpus/bulk.js';
import { ALL_FAMILIES, globToRegExp } from '../families/index.js';
import type { Family } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { runOpenLoop } from '../load/openLoop.js';
import { bodiesFor, phase, wireRequest } from '../load/readPhase.js';
import { constantRate } from '../load/scheduler.js';
import { otherRole, type Side, whileFrozen } from '../load/side.js';
import type { MixedRowRaw, MixedSideRaw, WriteLoad } from '../model/raw.js';
import { perRound, type RunSettings } from '../model/settings.js';

/**
 * The read families measured under a write load: the fixed cost of a search, a filter, a numeric
 * range, a scored text query, a compound query, an approximate metric and a terms aggregation.
 */
export const MIXED_SOURCE_FAMILIES: readonly string[] = [
  'query.match_all',
  'query.term',
  'query.range_numeric',
  'query.match',
  'query.bool',
  'metric.cardinality',
  'bucket.terms',
];
export const mixedRowId = (family: Family) => `mixed.${family.family}`;

/** The source families whose mixed row id (`mixed.<family>`) matches one of the comma-separated globs. */
export function selectMixed(globs: string): Family[] {
  const patterns = globs.split(',').map((g) => globToRegExp(g.trim()));
  return ALL_FAMILIES.filter(
    (f) => MIXED_SOURCE_FAMILIES.includes(f.id) && patterns.some((p) => p.test(mixedRowId(f))),
  );
}

/** Documents per bulk of the background writer: small, frequent writes, as a live index sees. */
export const MIXED_BULK_DOCS = 100;
/** The writer's in-flight cap: past it a bulk is dropped and counted, never queued. */
const WRITER_IN_FLIGHT = 4;

export interface MixedOptions {
  /** Offered write rate, docs/s (open loop, in bulks of MIXED_BULK_DOCS). */
  writeRate: number;
  bulkDocs?: number;
}

/**
 * Bulk bodies that re-index corpus documents by id, `docs` at a time, cycling through the
 * corpus. Re-indexing (an update: delete + add in both engines) keeps `_count` and the result
 * signals of every other row unchanged, while the engines pay the full write path.
 */
export function rewriteBodies(corpus: PreparedCorpus, docs: number, count: number): string[] {
  const pairs: string[] = [];
  for (const batch of corpus.batches) {
    const lines = batch.body.toString('utf8').split('\n');
    for (let i = 0; i + 1 < lines.length && pairs.length < docs * count; i += 2)
      pairs.push(`${lines[i]}\n${lines[i + 1]}\n`);
    if (pairs.length >= docs * count) break;
  }
  if (pairs.length === 0) throw new Error('mixed rows need a corpus to re-index');
  return Array.from({ length: count }, (_, b) =>
    Array.from({ length: docs }, (_, d) => pairs[(b * docs + d) % pairs.length]).join(''),
  );
}

/** Items of a bulk response that did not fail. */
function ackedItems(text: string, sent: number): number {
  try {
    const body = JSON.parse(text) as { errors?: boolean; items?: Record<string, { error?: unknown }>[] };
    if (!body.errors) return sent;
    return (body.items ?? []).filter((item) => !Object.values(item)[0]?.error).length;
  } catch {
    return 0;
  }
}

/** Write in the background at `rate` docs/s until `done()`; resolves with what was acknowledged. */
async function writeUntil(
  side: Side,
  index: string,
  bodies: readonly string[],
  bulkDocs: number,
  rate: number,
  clock: Clock,
  done: () => boolean,
  maxBulks: number,
): Promise<WriteLoad> {
  const load: WriteLoad = { offeredDocs: 0, ackedDocs: 0, failedBulks: 0, droppedBulks: 0, elapsedMs: 0 };
  const samples = await runOpenLoop({
    count: maxBulks,
    schedule: constantRate(rate / bulkDocs),
    clock,
    maxInFlight: WRITER_IN_FLIGHT,
    phase: 'timed',
    shouldStop: () => done() || side.stopped,
    send: async (i) => {
      try {
        const res = await side.send('POST', `/${index}/_bulk`, bodies[i % bodies.length]);
        const ok = res.status >= 200 && res.status < 300;
        const acked = ok ? ackedItems(res.text, bulkDocs) : 0;
        load.ackedDocs += acked;
        if (acked < bulkDocs) load.failedBulks++;
        return { outcome: ok ? 'ok' : 'http_error', status: res.status };
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        load.failedBulks++;
        return { outcome: error.kind === 'timeout' ? 'timeout' : 'transport_error', status: 0 };
      }
    },
  });
  load.offeredDocs = samples.length * bulkDocs;
  load.droppedBulks = samples.filter((s) => s.outcome === 'dropped').length;
  // Acked docs per scheduled second: the share of the offered load the engine took. (Up to the
  // last ack instead would charge the final bulk's latency to the rate, in windows of a second.)
  load.elapsedMs = (samples.length * bulkDocs * 1000) / rate;
  return load;
}

/**
 * Measure one read family under a constant background write load into the same index: per
 * round, per engine (order alternating), a writer re-indexes corpus documents open loop at
 * `writeRate` docs/s while the family's warmup and timed reads run open loop at the read rate.
 * Engines take turns, so each one's reads share the machine only with its own writes.
 * Results are not compared: the read rows already prove the answers agree, and under writes
 * the visible documents differ by refresh timing, not by correctness.
 */
export async function measureMixedRow(
  family: Family,
  sides: { candidate: Side; baseline: Side },
  index: string,
  corpus: PreparedCorpus,
  settings: RunSettings,
  clock: Clock,
  opts: MixedOptions,
  onProgress?: (what: string) => void,
): Promise<MixedRowRaw> {
  const bulkDocs = opts.bulkDocs ?? MIXED_BULK_DOCS;
  const probeBody = bodiesFor(family, settings.seed, 1, 'mixed-probe')[0] as Record<string, unknown>;
  const empty = (): MixedSideRaw => ({ supported: true, timed: [], warmup: [], writes: [] });
  const raw: MixedRowRaw = {
    family,
    probeBody,
    writeRate: opts.writeRate,
    candidate: empty(),
    baseline: empty(),
  };

  const probe = wireRequest(family, index, probeBody);
  for (const role of ['candidate', 'baseline'] as const) {
    const res = await sides[role].send('POST', probe.path, probe.body).catch((error: unknown) => {
      if (error instanceof TransportError) return { status: 0, text: error.message };
      throw error;
    });
    if (res.status < 200 || res.status >= 300) {
      let parsed: unknown = res.text;
      try {
        parsed = JSON.parse(res.text);
      } catch {}
      raw[role] = { ...empty(), supported: false, error: esErrorSummary(res.status, parsed) };
    }
  }
  if (!raw.candidate.supported || !raw.baseline.supported) return raw;

  // Enough bulks for three times the expected read time plus ten seconds; the writer stops with the reads.
  const readSeconds = (settings.warmup + perRound(settings)) / settings.rate;
  const maxBulks = Math.ceil(((readSeconds * 3 + 10) * opts.writeRate) / bulkDocs);
  const bodies = rewriteBodies(corpus, bulkDocs, Math.min(maxBulks, 1000));
  for (let round = 0; round < settings.rounds; round++) {
    const order =
      round % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    const warm = bodiesFor(family, settings.seed, settings.warmup, 'mixed-warmup', round);
    const timed = bodiesFor(family, settings.seed, perRound(settings), 'mixed-round', round);
    for (const role of order) {
      onProgress?.(`${role} round ${round + 1}/${settings.rounds}`);
      const side = sides[role];
      // The other engine frozen throughout, its merges from its own write load included.
      raw[role].writes.push(
        await whileFrozen([sides[otherRole(role)]], () => mixedPhase(role, round, warm, timed)),
      );
      side.check();
    }
  }
  return raw;

  /** One engine's round: reads timed while the writer runs, then the writer's totals. */
  async function mixedPhase(
    role: 'candidate' | 'baseline',
    round: number,
    warm: Record<string, unknown>[],
    timed: Record<string, unknown>[],
  ): Promise<WriteLoad> {
    const side = sides[role];
    let readsDone = false;
    const writer = writeUntil(
      side,
      index,
      bodies,
      bulkDocs,
      opts.writeRate,
      clock,
      () => readsDone,
      maxBulks,
    );
    // The writer's own failure must surface after the reads stop it, never as an unhandled rejection.
    writer.catch(() => {});
    try {
      raw[role].warmup.push(...(await phase(side, family, index, warm, settings, clock, 'warmup', round)));
      const samples = await phase(side, family, index, timed, settings, clock, 'timed', round);
      raw[role].timed.push(...samples.map((s) => ({ ...s, i: s.i + round * timed.length })));
    } finally {
      readsDone = true;
    }
    return writer;
  }
}
