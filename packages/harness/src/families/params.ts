import { CORPUS_END_MS, CORPUS_START_MS } from '../corpus/timeline.js';
import { MODEL_PICKER, MODELS, STATUSES, TENANT_PICKER, WORD_PICKER } from '../corpus/vocabulary.js';
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
