import { ingestBoth, ingestRounds, loadUntimed } from '../../measure/ingest.js';
import { clientCounts } from '../../model/settings.js';
import { writeSamples } from '../../scorecard/write.js';
import { INGEST_ROW_ID, ingestRowResult } from '../../verdict/ingestRowResult.js';
import type { Stage } from '../context.js';
import { placeEngines } from '../placement.js';
import { ownsUnit } from '../shard.js';

/**
 * The load: the corpus into both engines through one bulk client each. It always runs (every
 * later row reads this index) and is also the `ingest.1-client` row when --clients includes 1.
 * An engine that dies while loading fails the run: there is nothing left to measure.
 */
export const loadStage: Stage = {
  name: 'ingest',
  steps: () => 2,
  async run(ctx) {
    const { sides, settings } = ctx;
    // Units: documents sent (each engine's warmup bulks, then its chunks, as ingestBoth orders them).
    const { docs, batches } = ctx.corpus;
    const warm = batches.slice(0, settings.ingestWarmupBatches).reduce((n, b) => n + b.docs, 0);
    const rounds = ingestRounds(settings, batches.length);
    const steps = [warm, warm, ...Array<number>(2 * rounds).fill(docs / rounds)];
    ctx.phases.begin('load', 'ingest', 2 * (warm + docs) + (ctx.base ? docs : 0));
    await placeEngines(ctx, 'load');
    let sent = 0;
    let step = 0;
    const raw = await ingestBoth(sides, ctx.corpus, ctx.index, settings, (what) => {
      ctx.phases.tick(Math.round(sent));
      sent += steps[step++] ?? 0;
      ctx.progress.step('ingest', what);
    });
    sides.candidate.check();
    sides.baseline.check();
    ctx.progress.advance();
    ctx.progress.advance();
    if (ctx.base) {
      ctx.phases.tick(2 * (warm + docs));
      ctx.progress.step('ingest', 'base (the merge-base build), untimed');
      await loadUntimed(ctx.base, ctx.corpus, ctx.index, settings);
    }
    for (const role of ['candidate', 'baseline'] as const)
      ctx.loaded[role] = raw[role].supported && raw[role].count === ctx.corpus.docs;
    const row = ingestRowResult(raw, ctx.corpus.docs, settings);
    // Every shard of a split run loads; the shard dealt the row records it (shard.ts).
    if (clientCounts(settings).includes(1) && ownsUnit(ctx.shard, INGEST_ROW_ID)) ctx.rows.push(row);
    await writeSamples(ctx.out, ctx.runId, INGEST_ROW_ID, {
      candidate: raw.candidate.bulkMs,
      baseline: raw.baseline.bulkMs,
    });
  },
};
