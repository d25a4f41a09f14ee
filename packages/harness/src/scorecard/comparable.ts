import type { Scorecard } from './schema.js';

/**
 * What two runs must share before any of their numbers are compared (coverage, flaky counts,
 * changed rows, "previous run", the site's trends): the corpus and its size, the row selection,
 * the baseline (product, version and cluster shape) and the machine class. A 100k run and a 1M
 * run of the same commit are two different measurements, not a trend.
 */
export interface ComparableSet {
  corpus: string;
  docs: number;
  families: string;
  /**
   * The rows beyond the default matrix that flags add or take away (kNN, ingest at more client
   * counts, no sweeps), in words; empty for the default. A run with --knn and one without are
   * different row sets: the kNN rows "missing" from the second is not coverage that fell.
   */
  extras: string;
  /**
   * e.g. "OpenSearch 2.19.1 2.19.1", or for a cluster "OpenSearch 2.19.1 2.19.1, 3 nodes x 1024 MiB
   * heap, 3 shards, 0 replicas": every part of a cluster's shape changes what is measured.
   */
  baseline: string;
  /** e.g. "2 cores, Intel Xeon ...". */
  machine: string;
}

export function comparableSet(card: Scorecard): ComparableSet {
  const m = card.manifest;
  return {
    corpus: m.corpus.name,
    docs: m.corpus.docs,
    families: String(m.settings?.families ?? '*'),
    extras: rowExtras(m.settings),
    baseline: `${m.baseline.product} ${m.baseline.version}${topologyWords(m.baseline.topology)}`,
    machine: `${m.machine.cores} cores, ${m.machine.cpuModel}`,
  };
}

/**
 * A single node holding a one-shard index adds nothing, so every single-node key stays what it
 * was before topologies were recorded; anything else names its whole shape.
 */
export function topologyWords(t: Scorecard['manifest']['baseline']['topology']): string {
  if (!t || (t.nodes === 1 && t.shards === 1 && t.replicas === 0)) return '';
  const heap = t.heapMbPerNode === undefined ? '' : ` x ${t.heapMbPerNode} MiB heap`;
  return `, ${t.nodes} node${t.nodes === 1 ? '' : 's'}${heap}, ${t.shards} shard${t.shards === 1 ? '' : 's'}, ${t.replicas} replica${t.replicas === 1 ? '' : 's'}`;
}

function rowExtras(settings: Scorecard['manifest']['settings']): string {
  const extras: string[] = [];
  if (settings?.knn === true) extras.push(`kNN (${settings.knnDocs ?? 'default'} vectors)`);
  const clients = String(settings?.clients ?? '1');
  if (clients !== '1') extras.push(`ingest at ${clients} clients`);
  if (settings?.sweep === false) extras.push('no sweeps');
  // A shard alone is a share of the matrix: never compared with whole runs (a merged card is whole).
  if (typeof settings?.shard === 'string' && settings.shard !== '') extras.push(`shard ${settings.shard}`);
  return extras.join(', ');
}

/** One string per comparable set: equal keys, comparable runs. */
export function comparableKey(card: Scorecard): string {
  const s = comparableSet(card);
  // A default row set adds nothing, so keys written before extras existed stay what they were.
  return [s.corpus, s.docs, s.families, s.baseline, s.machine, ...(s.extras ? [s.extras] : [])].join(' | ');
}

export function comparable(a: Scorecard, b: Scorecard): boolean {
  return comparableKey(a) === comparableKey(b);
}
