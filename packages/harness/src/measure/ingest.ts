import { indexBodyFor, type PreparedCorpus } from '../corpus/bulk.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { otherRole, type Side, whileFrozen } from '../load/side.js';
import type { IngestSideRaw } from '../model/raw.js';
import { type RunSettings, singleFork } from '../model/settings.js';

export const WARMUP_INDEX = 'everycell-warmup';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** First item error of a bulk response with errors:true, as "type: reason". */
function firstItemError(body: unknown): { failed: number; summary: string } {
  const items =
    (body as { items?: Record<string, { error?: { type?: string; reason?: string } }>[] }).items ?? [];
  let failed = 0;
  let summary = 'bulk reported errors';
  for (const item of items) {
    const op = Object.values(item)[0];
    if (op?.error) {
      if (failed === 0) summary = `${op.error.type ?? 'error'}: ${op.error.reason ?? ''}`;
      failed++;
    }
  }
  return { failed, summary };
}

async function recreateIndex(side: Side, index: string, corpus: PreparedCorpus): Promise<string | undefined> {
  const del = await side.json('DELETE', `/${index}`);
  if (del.status >= 300 && del.status !== 404)
    return `DELETE /${index}: ${esErrorSummary(del.status, del.body)}`;
  const body = indexBodyFor(corpus, side.role);
  let put = await side.json('PUT', `/${index}`, body);
  if (put.status === 400 && body !== corpus.indexBody && JSON.stringify(put.body).includes('similarity')) {
    // A build older than the similarity setting (a merge-base or bisect build) refuses it: it
    // takes the corpus's own index and scores on its default scale, and the manifest says so.
    const refused = esErrorSummary(put.status, put.body);
    put = await side.json('PUT', `/${index}`, corpus.indexBody);
    if (put.status < 300) {
      corpus.indexBodies = { ...corpus.indexBodies, [side.role]: corpus.indexBody };
      corpus.indexBodyNotes = {
        ...corpus.indexBodyNotes,
        [side.role]: `refused the aligned similarity (${refused.slice(0, 120)}): default scale`,
      };
    }
  }
  if (put.status >= 300) return `PUT /${index}: ${esErrorSummary(put.status, put.body)}`;
  return undefined;
}

/** Warm the write path on a throwaway index (JIT/JVM), then remove it. */
async function warmIngest(
  side: Side,
  corpus: PreparedCorpus,
  settings: RunSettings,
): Promise<string | undefined> {
  const error = await recreateIndex(side, WARMUP_INDEX, corpus);
  if (error) return error;
  for (const batch of corpus.batches.slice(0, settings.ingestWarmupBatches)) {
    const res = await side.send('POST', `/${WARMUP_INDEX}/_bulk`, batch.body, settings.bulkTimeoutMs);
    if (res.status >= 300) return `warmup bulk: ${esErrorSummary(res.status, parse(res.text))}`;
  }
  await side.send('POST', `/${WARMUP_INDEX}/_refresh`);
  const del = await side.json('DELETE', `/${WARMUP_INDEX}`);
  if (del.status >= 300) return `DELETE /${WARMUP_INDEX}: ${esErrorSummary(del.status, del.body)}`;
  return undefined;
}

type Sides = { candidate: Side; baseline: Side };
type Role = keyof Sides;

/**
 * The load's paired rounds: every planned round of the read rows' forks (the load runs in one
 * process per engine, like kNN), at most one per bulk.
 */
export const ingestRounds = (settings: RunSettings, bulks: number): number =>
  Math.max(1, Math.min(singleFork(settings).rounds, bulks));

/** Send a run of bulks (and, for a side's last chunk, the refresh) and add the time to `raw`. */
async function ingestChunk(
  side: Side,
  raw: IngestSideRaw,
  chunk: { n: number; body: Buffer; docs: number }[],
  index: string,
  settings: RunSettings,
  refreshAfter: boolean,
): Promise<void> {
  const t0 = process.hrtime.bigint();
  for (const { n, body } of chunk) {
    const start = process.hrtime.bigint();
    const res = await side.send('POST', `/${index}/_bulk`, body, settings.bulkTimeoutMs);
    raw.bulkMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    // A regex scan is cheap enough to stay inside the timed window; full parsing only on failure.
    if (res.status >= 300) {
      raw.failedBulks++;
      raw.error ??= `bulk ${n}: ${esErrorSummary(res.status, parse(res.text))}`;
    } else if (/"errors"\s*:\s*true/.test(res.text)) {
      const { failed, summary } = firstItemError(parse(res.text));
      raw.failedBulks++;
      raw.failedItems += failed;
      raw.error ??= `bulk ${n}: ${failed} items failed, first: ${summary}`;
    }
  }
  if (refreshAfter) {
    const refresh = await side.send('POST', `/${index}/_refresh`);
    if (refresh.status >= 300) {
      raw.supported = false;
      raw.error = `refresh: ${esErrorSummary(refresh.status, parse(refresh.text))}`;
    }
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  raw.elapsedMs += ms;
  raw.chunks.push({ docs: chunk.reduce((n, b) => n + b.docs, 0), ms });
}

/**
 * The ingest row: one client per engine, bulk bodies prepared in advance. Each engine first
 * warms its write path on a throwaway index; then the corpus goes in as `ingestRounds` contiguous
 * chunks, engines alternating per round (C B, B C, ...) so drift on the machine hits both.
 * An engine's time is the sum of its chunks, its last chunk ending with the `_refresh`; then
 * `_count` must equal the corpus. Each round is one paired unit of the row's interval, timed with
 * the other engine frozen (Side.freeze), so neither engine's background merges land in the other's time.
 */
export async function ingestBoth(
  sides: Sides,
  corpus: PreparedCorpus,
  index: string,
  settings: RunSettings,
  onStep?: (what: string) => void,
): Promise<Record<Role, IngestSideRaw>> {
  const raws: Record<Role, IngestSideRaw> = {
    candidate: { supported: true, bulkMs: [], elapsedMs: 0, chunks: [], failedBulks: 0, failedItems: 0 },
    baseline: { supported: true, bulkMs: [], elapsedMs: 0, chunks: [], failedBulks: 0, failedItems: 0 },
  };
  // Every side operation goes through here: a timeout or reset fails that side, not the run.
  const guarded = async (role: Role, what: () => Promise<string | undefined>) => {
    if (!raws[role].supported) return;
    try {
      const error = await what();
      if (error) Object.assign(raws[role], { supported: false, error });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      Object.assign(raws[role], { supported: false, error: `ingest: ${error.message}` });
    }
  };

  for (const role of ['candidate', 'baseline'] as const) {
    onStep?.(`${role} warmup`);
    await guarded(
      role,
      async () =>
        (await warmIngest(sides[role], corpus, settings)) ?? recreateIndex(sides[role], index, corpus),
    );
  }
  const numbered = corpus.batches.map((b, n) => ({ n, body: b.body, docs: b.docs }));
  const rounds = ingestRounds(settings, numbered.length);
  const per = Math.ceil(numbered.length / rounds);
  for (let r = 0; r < rounds; r++) {
    const chunk = numbered.slice(r * per, (r + 1) * per);
    const order = r % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    for (const role of order) {
      onStep?.(`${role} round ${r + 1}/${rounds}`);
      // The other engine frozen: its merges from the chunk it just took run on its own time.
      await guarded(role, async () => {
        await whileFrozen([sides[otherRole(role)]], () =>
          ingestChunk(sides[role], raws[role], chunk, index, settings, r === rounds - 1),
        );
        return undefined;
      });
    }
  }
  for (const role of ['candidate', 'baseline'] as const) {
    await guarded(role, async () => {
      const raw = raws[role];
      raw.docsPerSec = corpus.docs / (raw.elapsedMs / 1000);
      const count = await sides[role].json('POST', `/${index}/_count`, { query: { match_all: {} } });
      if (count.status >= 300) return `_count: ${esErrorSummary(count.status, count.body)}`;
      raw.count = (count.body as { count?: number }).count;
      return raw.failedBulks > 0 ? raw.error : undefined;
    });
  }
  return raws;
}

/**
 * Load the corpus into one more engine, untimed (the gate's merge-base build: it needs the same
 * index to be measured on the read rows, not an ingest figure). Throws when it did not take it all.
 */
export async function loadUntimed(side: Side, corpus: PreparedCorpus, index: string, settings: RunSettings) {
  const raw: IngestSideRaw = {
    supported: true,
    bulkMs: [],
    elapsedMs: 0,
    chunks: [],
    failedBulks: 0,
    failedItems: 0,
  };
  const error = await recreateIndex(side, index, corpus);
  if (error) throw new Error(`${side.role}: ${error}`);
  const numbered = corpus.batches.map((b, n) => ({ n, body: b.body, docs: b.docs }));
  await ingestChunk(side, raw, numbered, index, settings, true);
  const count = await side.json('POST', `/${index}/_count`, { query: { match_all: {} } });
  const n = (count.body as { count?: number }).count;
  if (raw.failedBulks > 0 || n !== corpus.docs)
    throw new Error(
      `${side.role}: loaded ${n ?? 'no'} of ${corpus.docs} documents${raw.error ? ` (${raw.error})` : ''}`,
    );
}
