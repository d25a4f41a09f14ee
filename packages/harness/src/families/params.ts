import { docId } from '../corpus/generate.js';
import { CORPUS_END_MS, CORPUS_START_MS } from '../corpus/timeline.js';
import {
  ERROR_PHRASES,
  MODEL_PICKER,
  MODELS,
  REGION_PICKER,
  STATUSES,
  TENANT_PICKER,
  WORD_PICKER,
} from '../corpus/vocabulary.js';
import type { Rng } from '../rng.js';

/**
 * Query parameters drawn with the corpus's own skew: popular tenants and models are asked
 * about more often, as on a real dashboard.
 */

export const pickModel = (rng: Rng): string => MODEL_PICKER.pick(rng).name;
export const pickTenant = (rng: Rng): string => TENANT_PICKER.pick(rng);
export const pickProvider = (rng: Rng): string => MODEL_PICKER.pick(rng).provider;
export const pickWord = (rng: Rng): string => WORD_PICKER.pick(rng);
export const pickStatus = (rng: Rng): string => rng.pick(STATUSES).name;
export const pickRegion = (rng: Rng): string => REGION_PICKER.pick(rng);

export function pickModels(rng: Rng, count: number): string[] {
  const out = new Set<string>();
  while (out.size < Math.min(count, MODELS.length)) out.add(pickModel(rng));
  return [...out];
}

/** A window of whole minutes inside the corpus span, between minHours and maxHours long. */
export function pickWindow(rng: Rng, minHours: number, maxHours: number): { gte: string; lt: string } {
  const lengthMs = Math.round((minHours + rng.float() * (maxHours - minHours)) * 60) * 60_000;
  const latestStart = CORPUS_END_MS - lengthMs;
  const start =
    CORPUS_START_MS + Math.floor((rng.float() * (latestStart - CORPUS_START_MS)) / 60_000) * 60_000;
  return { gte: new Date(start).toISOString(), lt: new Date(start + lengthMs).toISOString() };
}

/** A latency band around typical values, e.g. "slow requests between 2 s and 5 s". */
export function pickLatencyBand(rng: Rng): { gte: number; lt: number } {
  const gte = rng.pick([100, 250, 500, 1000, 2000, 5000]);
  return { gte, lt: gte * rng.pick([2, 4, 10]) };
}

/** 2-3 consecutive words of an error phrase: phrases that really occur, in order, in messages. */
export function pickPhrase(rng: Rng): string {
  const phrase = rng.pick(rng.pick(Object.values(ERROR_PHRASES))).split(' ');
  const length = rng.int(2, Math.min(3, phrase.length));
  const start = rng.int(0, phrase.length - length);
  return phrase.slice(start, start + length).join(' ');
}

/** A corpus word with one letter replaced, so fuzzy matching (1 edit) has something to find. */
export function pickMisspelledWord(rng: Rng): string {
  let word = pickWord(rng);
  while (word.length < 4) word = pickWord(rng);
  const at = rng.int(1, word.length - 1);
  const letter = String.fromCharCode(97 + rng.int(0, 25));
  return word.slice(0, at) + letter + word.slice(at + 1);
}

/** Event ids as the corpus numbers them; ids past the corpus size simply match nothing on both. */
export function pickDocIds(rng: Rng, count: number, below = 100_000): string[] {
  return Array.from({ length: count }, () => docId(rng.int(0, below - 1)));
}

/** A minute inside the corpus, as epoch milliseconds. */
export function pickInstantMs(rng: Rng): number {
  return CORPUS_START_MS + Math.floor((rng.float() * (CORPUS_END_MS - CORPUS_START_MS)) / 60_000) * 60_000;
}

/** Newest first: @timestamp is unique in the corpus, so a page in this order is determined. */
export const LATEST_FIRST = [{ '@timestamp': { order: 'desc' } }];

/** A tenant filter: the set most dashboard panels are drawn over. */
export const byTenant = (rng: Rng) => ({ bool: { filter: [{ term: { tenant: pickTenant(rng) } }] } });

/** A cost_usd band (a double) around typical call costs, from a tenth of a cent to a few dollars. */
export function pickCostBand(rng: Rng): { gte: number; lt: number } {
  const gte = rng.pick([0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01]);
  return { gte, lt: gte * rng.pick([2, 4, 10]) };
}
