/**
 * Comparable runs: the harness's own key (@everycell/harness/comparable: corpus, size, row
 * selection, baseline product/version/nodes, machine) groups the runs into sets, and every trend,
 * heatmap, comparison and "previous run" on the site stays inside one set. A 100k run and a 1M
 * run of the same commit are two measurements, not a trend. Pure; unit-tested.
 */
import { createHash } from 'node:crypto';
import {
  type ComparableSet,
  comparableKey as harnessKey,
  comparableSet as harnessSet,
} from '@everycell/harness/comparable';
import type { Scorecard as HarnessScorecard } from '@everycell/harness/schema';
import type { Scorecard } from './definitions';
import { compareRuns } from './prepare';

// The harness's functions are typed for schema 2; a schema-1 file has every field they read.
const comparableKey = (card: Scorecard) => harnessKey(card as unknown as HarnessScorecard);
const comparableSet = (card: Scorecard) => harnessSet(card as unknown as HarnessScorecard);

/** The harness's comparable key of a run: runs with equal keys form one set. */
export function setKeyOf(card: Scorecard): string {
  return comparableKey(card);
}

/** True when two runs may be compared (the harness's rule). */
export function comparable(a: Scorecard, b: Scorecard): boolean {
  return comparableKey(a) === comparableKey(b);
}

export interface RunSet {
  /** The harness's key: equal keys, comparable runs. */
  key: string;
  /** URL-safe and stable: readable corpus and size, then a short hash of the whole key. */
  slug: string;
  set: ComparableSet;
  /** "llm-telemetry-v1, 100,000 docs": what was measured, without the options. */
  name: string;
  /** What the run set beyond the default matrix (kNN, ingest clients, topology...), as chips. */
  options: SetOption[];
  /** Oldest first. */
  runs: Scorecard[];
}

/** One option of a comparable set, shown as a chip beside its name. */
export interface SetOption {
  key: 'knn' | 'clients' | 'sweeps' | 'topology' | 'rows';
  text: string;
}

const integer = new Intl.NumberFormat('en-US');

/** 100000 -> "100k", 1000000 -> "1m", 2500 -> "2500" (for URLs). */
export function sizeLabel(docs: number): string {
  if (docs >= 1_000_000 && docs % 1_000_000 === 0) return `${docs / 1_000_000}m`;
  if (docs >= 1_000 && docs % 1_000 === 0) return `${docs / 1_000}k`;
  return String(docs);
}

/** 100000 -> "100k", 10000000 -> "10M", 6046 -> "6,046" (for people). */
export function sizeShort(docs: number): string {
  if (docs >= 1_000_000 && docs % 1_000_000 === 0) return `${docs / 1_000_000}M`;
  if (docs >= 1_000 && docs % 1_000 === 0) return `${docs / 1_000}k`;
  return integer.format(docs);
}

/** "1,000,000 docs" */
export function docsLabel(docs: number): string {
  return `${integer.format(docs)} docs`;
}

/** ["1", "8"] -> "1 and 8"; ["1", "2", "4", "8"] -> "1, 2, 4 and 8": a list that cannot read as a decimal. */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The harness's `--clients` setting ("1,8" or ["1", "8"]) as a list of counts. */
export function clientCounts(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.map(String) : String(value ?? '1').split(',');
  return raw.map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * A set's options from its runs' manifest, the same settings the harness's key reads
 * (scorecard/comparable.ts rowExtras, topologyWords): one chip each, in words.
 */
export function setOptions(card: Scorecard): SetOption[] {
  const settings = card.manifest.settings;
  const options: SetOption[] = [];
  if (settings.knn === true) {
    const vectors =
      typeof settings.knnDocs === 'number' ? `${integer.format(settings.knnDocs)} vectors` : 'vectors';
    options.push({ key: 'knn', text: `kNN, ${vectors}` });
  }
  const clients = clientCounts(settings.clients);
  if (clients.join(',') !== '1') {
    options.push({ key: 'clients', text: `ingest at ${listInWords(clients)} clients` });
  }
  if (settings.sweep === false) options.push({ key: 'sweeps', text: 'no rate sweeps' });
  const topology = card.manifest.baseline.topology;
  if (topology && !(topology.nodes === 1 && topology.shards === 1 && topology.replicas === 0)) {
    const heap =
      topology.heapMbPerNode === undefined ? '' : `, ${integer.format(topology.heapMbPerNode)} MiB heap each`;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    options.push({
      key: 'topology',
      text: `baseline: ${plural(topology.nodes, 'node')}${heap}, ${plural(topology.shards, 'shard')}, ${plural(topology.replicas, 'replica')}`,
    });
  }
  const families = String(settings.families ?? '*');
  if (families !== '*') options.push({ key: 'rows', text: `rows ${families}` });
  return options;
}

function slugPart(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 6);

export function setSlug(card: Scorecard): string {
  return `${slugPart(card.manifest.corpus.name)}-${sizeLabel(card.manifest.corpus.docs)}-${shortHash(comparableKey(card))}`;
}

/** The set's name: corpus and size. Its options are chips beside it (setOptions). */
export function setName(set: Pick<ComparableSet, 'corpus' | 'docs'>): string {
  return `${set.corpus}, ${docsLabel(set.docs)}`;
}

/**
 * The set in one line of plain text, where chips cannot go (page titles, a select's options):
 * "llm-telemetry-v1, 1,000,000 docs (kNN, 50,000 vectors; ingest at 1 and 8 clients)".
 */
export function setLabel(set: Pick<RunSet, 'name' | 'options'>): string {
  return set.options.length === 0 ? set.name : `${set.name} (${set.options.map((o) => o.text).join('; ')})`;
}

/** Every set, the one with the newest run first; runs inside a set oldest first. */
export function runSets(cards: readonly Scorecard[]): RunSet[] {
  const byKey = new Map<string, RunSet>();
  for (const card of [...cards].sort(compareRuns)) {
    const key = comparableKey(card);
    const existing = byKey.get(key);
    if (existing) existing.runs.push(card);
    else {
      const set = comparableSet(card);
      byKey.set(key, {
        key,
        slug: setSlug(card),
        set,
        name: setName(set),
        options: setOptions(card),
        runs: [card],
      });
    }
  }
  return [...byKey.values()].sort((a, b) =>
    compareRuns(b.runs.at(-1) as Scorecard, a.runs.at(-1) as Scorecard),
  );
}

/**
 * Sets that differ only in corpus size: the same corpus, rows, options, baseline and machine at
 * 100k, 1M and 10M documents are one scaling line, and only those sizes line up. A 1M set with
 * kNN and a 10M set without are two lines, each named by the sizes it has.
 */
export interface ScalingLine {
  slug: string;
  corpus: string;
  options: SetOption[];
  /** "OpenSearch 2.19.1" with its cluster shape, as the harness's key writes it. */
  baseline: string;
  machine: string;
  /** Smallest corpus first. */
  sets: RunSet[];
  /** "llm-telemetry-v1: 100k → 1M → 10M" */
  name: string;
}

function lineKey(set: ComparableSet): string {
  return [set.corpus, set.families, set.baseline, set.machine, set.extras].join(' | ');
}

/** The scaling lines, the one with the newest run first (the sets' own order). */
export function scalingLines(sets: readonly RunSet[]): ScalingLine[] {
  const lines = new Map<string, ScalingLine>();
  for (const set of sets) {
    const key = lineKey(set.set);
    const line = lines.get(key);
    if (line) line.sets.push(set);
    else
      lines.set(key, {
        slug: `${slugPart(set.set.corpus)}-${shortHash(key)}`,
        corpus: set.set.corpus,
        options: set.options,
        baseline: set.set.baseline.replace(/(\S+) \1(?=$|,)/, '$1'),
        machine: set.set.machine,
        sets: [set],
        name: '',
      });
  }
  return [...lines.values()].map((line) => {
    const ordered = [...line.sets].sort((a, b) => a.set.docs - b.set.docs);
    return {
      ...line,
      sets: ordered,
      name: `${line.corpus}: ${ordered.map((set) => sizeShort(set.set.docs)).join(' → ')}`,
    };
  });
}

/** The scaling line a set belongs to. */
export function lineOfSet(lines: readonly ScalingLine[], slug: string): ScalingLine | undefined {
  return lines.find((line) => line.sets.some((set) => set.slug === slug));
}

/** The set a run belongs to. */
export function setOfRun(sets: readonly RunSet[], runId: string): RunSet | undefined {
  return sets.find((set) => set.runs.some((run) => run.runId === runId));
}

/** The run before this one in its own set (never a run of another size or baseline). */
export function previousInSet(sets: readonly RunSet[], runId: string): Scorecard | undefined {
  const set = setOfRun(sets, runId);
  if (!set) return undefined;
  const index = set.runs.findIndex((run) => run.runId === runId);
  return index > 0 ? set.runs[index - 1] : undefined;
}

export function nextInSet(sets: readonly RunSet[], runId: string): Scorecard | undefined {
  const set = setOfRun(sets, runId);
  if (!set) return undefined;
  const index = set.runs.findIndex((run) => run.runId === runId);
  return index >= 0 ? set.runs[index + 1] : undefined;
}
