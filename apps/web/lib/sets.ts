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
  /** Oldest first. */
  runs: Scorecard[];
}

const integer = new Intl.NumberFormat('en-US');

/** 100000 -> "100k", 1000000 -> "1m", 2500 -> "2500". */
export function sizeLabel(docs: number): string {
  if (docs >= 1_000_000 && docs % 1_000_000 === 0) return `${docs / 1_000_000}m`;
  if (docs >= 1_000 && docs % 1_000 === 0) return `${docs / 1_000}k`;
  return String(docs);
}

/** "1,000,000 docs" */
export function docsLabel(docs: number): string {
  return `${integer.format(docs)} docs`;
}

function slugPart(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function setSlug(card: Scorecard): string {
  const key = comparableKey(card);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 6);
  return `${slugPart(card.manifest.corpus.name)}-${sizeLabel(card.manifest.corpus.docs)}-${hash}`;
}

/** One line naming the set: "llm-telemetry-v1, 1,000,000 docs, vs OpenSearch 2.19.1". */
export function setLabel(set: ComparableSet): string {
  const rows = `${set.families === '*' ? '' : `, rows ${set.families}`}${set.extras ? `, ${set.extras}` : ''}`;
  // The harness writes product and version; a product name that already ends in its version says it once.
  const baseline = set.baseline.replace(/(\S+) \1(?=$|,)/, '$1');
  return `${set.corpus}, ${docsLabel(set.docs)}, vs ${baseline}${rows}`;
}

/** Every set, the one with the newest run first; runs inside a set oldest first. */
export function runSets(cards: readonly Scorecard[]): RunSet[] {
  const byKey = new Map<string, RunSet>();
  for (const card of [...cards].sort(compareRuns)) {
    const key = comparableKey(card);
    const existing = byKey.get(key);
    if (existing) existing.runs.push(card);
    else byKey.set(key, { key, slug: setSlug(card), set: comparableSet(card), runs: [card] });
  }
  return [...byKey.values()].sort((a, b) =>
    compareRuns(b.runs.at(-1) as Scorecard, a.runs.at(-1) as Scorecard),
  );
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
