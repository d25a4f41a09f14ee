import { isDeepStrictEqual } from 'node:util';
import { unitOfRow } from '../run/shard.js';
import { countVerdicts, exitCodeFor } from '../scorecard/build.js';
import { makeRunId } from '../scorecard/runId.js';
import type { Floor, Manifest, RowResult, Scorecard, ShardRecord } from '../scorecard/schema.js';

/** Cards that are not the shards of one split run: the message names what differs. */
export class MergeError extends Error {}

/** Settings that name the run itself (its log folder) or its share, not what it measured. */
const PER_RUN_SETTINGS = new Set(['shard', 'engineLogs']);

/**
 * What every shard of one split must share: the code, the engines, the corpus and every setting
 * but the shard itself. Rows from runs that differ in any of these are not one matrix.
 */
function sameRun(a: Scorecard, b: Scorecard): string | undefined {
  const ma = a.manifest;
  const mb = b.manifest;
  if (ma.gitRevision !== mb.gitRevision) return `revision ${ma.gitRevision} vs ${mb.gitRevision}`;
  for (const role of ['candidate', 'baseline'] as const) {
    const ea = ma[role];
    const eb = mb[role];
    if (
      ea.product !== eb.product ||
      ea.version !== eb.version ||
      !isDeepStrictEqual(ea.topology, eb.topology)
    )
      return `${role} ${ea.product} ${ea.version} vs ${eb.product} ${eb.version}`;
  }
  if (!isDeepStrictEqual(ma.corpus, mb.corpus))
    return `corpus ${ma.corpus.name} ${ma.corpus.docs} (${ma.corpus.contentHash}) vs ${mb.corpus.name} ${mb.corpus.docs} (${mb.corpus.contentHash})`;
  const keys = new Set([...Object.keys(ma.settings), ...Object.keys(mb.settings)]);
  for (const k of PER_RUN_SETTINGS) keys.delete(k);
  for (const k of [...keys].sort())
    if (!isDeepStrictEqual(ma.settings[k], mb.settings[k]))
      return `setting ${k}: ${JSON.stringify(ma.settings[k])} vs ${JSON.stringify(mb.settings[k])}`;
  if (!isDeepStrictEqual(ma.shard?.assignment, mb.shard?.assignment))
    return 'the deal of measurements to shards (different row selections)';
  return undefined;
}

/** The shards' machines as one: the same machine once, else every model named (so never comparable with one). */
function machineOf(cards: readonly Scorecard[]): Manifest['machine'] {
  const first = (cards[0] as Scorecard).manifest.machine;
  const models = [...new Set(cards.map((c) => c.manifest.machine.cpuModel))];
  const cores = [...new Set(cards.map((c) => c.manifest.machine.cores))];
  if (models.length === 1 && cores.length === 1) return first;
  return {
    ...first,
    cpuModel: cards.map((c) => `shard ${c.manifest.shard?.index}: ${c.manifest.machine.cpuModel}`).join('; '),
    cores: Math.min(...cores),
  };
}

/** The coarsest floor of the shards: the card's resolution is its worst machine's. */
function coarsestFloor(cards: readonly Scorecard[]): Floor | undefined {
  const floors = cards.flatMap((c) => (c.floor ? [c.floor] : []));
  return floors.reduce<Floor | undefined>(
    (worst, f) => (worst === undefined || f.p99 > worst.p99 ? f : worst),
    undefined,
  );
}

function statusOf(cards: readonly Scorecard[]): Pick<Scorecard, 'status' | 'failure'> {
  const failed = cards.filter((c) => c.status !== 'complete');
  if (failed.length === 0) return { status: 'complete' };
  const status = failed.some((c) => c.status === 'failed') ? 'failed' : 'partial';
  const failure = failed
    .map((c) => `shard ${c.manifest.shard?.index} ${c.status}${c.failure ? `: ${c.failure}` : ''}`)
    .join('; ');
  return { status, failure };
}

/**
 * The shards of one split run (`--shard K/N` on N machines or one after another) joined into the
 * card a whole run would have written: every row once, from the shard it was dealt to and tagged
 * with it; verdict counts and the exit status recomputed from the rows; each shard's run, machine
 * and floor kept in `manifest.shards`. Refuses cards that are not exactly the N shards of one run.
 */
export function mergeCards(input: readonly Scorecard[]): Scorecard {
  if (input.length === 0) throw new MergeError('no scorecards to merge: pass the N shard run folders');
  const notShard = input.find((c) => c.manifest.shard === undefined);
  if (notShard)
    throw new MergeError(
      `${notShard.runId} is a whole run, not a shard: merge only cards of --shard K/N runs`,
    );
  const cards = [...input].sort((a, b) => (a.manifest.shard?.index ?? 0) - (b.manifest.shard?.index ?? 0));
  const first = cards[0] as Scorecard;
  const deal = first.manifest.shard as NonNullable<Manifest['shard']>;
  for (const card of cards.slice(1)) {
    const differs = sameRun(first, card);
    if (differs)
      throw new MergeError(`${card.runId} is not a shard of the same run as ${first.runId}: ${differs}`);
  }
  const indexes = cards.map((c) => c.manifest.shard?.index as number);
  const missing = Array.from({ length: deal.count }, (_, k) => k + 1).filter((k) => !indexes.includes(k));
  const repeated = indexes.filter((k, i) => indexes.indexOf(k) !== i);
  if (repeated.length > 0)
    throw new MergeError(`shard ${repeated[0]}/${deal.count} is given twice: pass each shard once`);
  if (missing.length > 0)
    throw new MergeError(
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${deal.count}`).join(', ')} missing: a merged card needs all ${deal.count}`,
    );
  if (cards.some((c) => c.versusBaseOverall !== undefined))
    throw new MergeError(
      "a shard ran with --base-build: the regression check's overall median needs all rows in one run; run the gate whole",
    );

  const order = Object.keys(deal.assignment);
  const position = (row: RowResult) => order.indexOf(unitOfRow(row.id));
  const rows: RowResult[] = [];
  for (const card of cards) {
    const index = card.manifest.shard?.index as number;
    for (const row of card.rows) {
      const dealtTo = deal.assignment[unitOfRow(row.id)];
      if (dealtTo !== index)
        throw new MergeError(
          `${card.runId} (shard ${index}) has row ${row.id}, dealt to ${dealtTo === undefined ? 'no shard' : `shard ${dealtTo}`}`,
        );
      rows.push({ ...row, shard: index });
    }
  }
  // Stable: rows of one unit (knn.latency, knn.recall) keep their shard's order.
  rows.sort((a, b) => position(a) - position(b));

  const { status, failure } = statusOf(cards);
  if (status === 'complete') {
    const measured = new Set(rows.map((r) => unitOfRow(r.id)));
    const unmeasured = order.filter((u) => !measured.has(u));
    if (unmeasured.length > 0)
      throw new MergeError(
        `complete shards left ${unmeasured.join(', ')} unmeasured: the cards are not of one deal`,
      );
  }

  const started = new Date(Math.min(...cards.map((c) => Date.parse(c.createdAt))));
  const shards: ShardRecord[] = cards.map((c) => ({
    index: c.manifest.shard?.index as number,
    runId: c.runId,
    createdAt: c.createdAt,
    durationMs: c.durationMs,
    status: c.status,
    ...(c.failure ? { failure: c.failure } : {}),
    machine: c.manifest.machine,
    node: c.manifest.node,
    ...(c.floor ? { floor: c.floor } : {}),
    rows: c.rows.length,
  }));
  const { shard: _deal, phases: _phases, ...manifest } = first.manifest;
  const idle = cards.flatMap((c) => c.manifest.idle ?? []);
  const counts = countVerdicts(rows);
  const floor = coarsestFloor(cards);
  const sweeps = cards.flatMap((c) => c.sweeps ?? []);
  const card: Scorecard = {
    schemaVersion: first.schemaVersion,
    runId: `${makeRunId(started, first.manifest.gitRevision)}-${deal.count}shards`,
    createdAt: started.toISOString(),
    status,
    ...(failure ? { failure } : {}),
    // The shards ran side by side: the matrix took as long as its longest shard.
    durationMs: Math.max(...cards.map((c) => c.durationMs)),
    manifest: {
      ...manifest,
      machine: machineOf(cards),
      node: [...new Set(cards.map((c) => c.manifest.node))].join(', '),
      settings: {
        ...first.manifest.settings,
        shard: '',
        // Each shard's engine logs stay in its own run folder.
        engineLogs: cards.map((c) => String(c.manifest.settings.engineLogs ?? '')).join(', '),
      },
      ...(idle.length > 0 ? { idle } : {}),
      shards,
    },
    counts,
    rows,
    ...(floor ? { floor } : {}),
    ...(sweeps.length > 0 ? { sweeps } : {}),
    ...(first.conformance ? { conformance: first.conformance } : {}),
    ...(first.restSuite ? { restSuite: first.restSuite } : {}),
    exitCode: exitCodeFor(status, counts),
  };
  return card;
}
