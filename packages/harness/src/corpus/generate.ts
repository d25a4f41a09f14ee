import { Rng } from '../rng.js';
import type { TelemetryEvent } from './mapping.js';
import { CORPUS_END_MS, timeAtQuantile } from './timeline.js';
import {
  ERROR_PHRASES,
  MODEL_PICKER,
  REGION_PICKER,
  STATUSES,
  TENANT_PICKER,
  WORD_PICKER,
} from './vocabulary.js';

export const CORPUS_NAME = 'llm-telemetry-v1';

export interface CorpusDoc {
  id: string;
  source: TelemetryEvent;
}

export function docId(i: number): string {
  return `ev-${String(i).padStart(9, '0')}`;
}

function pickStatus(rng: Rng): string {
  let u = rng.float();
  for (const s of STATUSES) {
    if (u < s.share) return s.name;
    u -= s.share;
  }
  return 'ok';
}

function clampInt(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.round(x)));
}

function message(rng: Rng, status: string): string {
  const words: string[] = [];
  const phrases = ERROR_PHRASES[status];
  if (phrases) words.push(rng.pick(phrases));
  const n = rng.int(5, 14);
  for (let i = 0; i < n; i++) words.push(WORD_PICKER.pick(rng));
  return words.join(' ');
}

/**
 * The corpus, in document order. Deterministic in (seed, docs): the same pair gives byte-identical
 * documents, which the content hash in the manifest proves.
 */
export function* generateCorpus(seed: number, docs: number): Generator<CorpusDoc> {
  const rng = Rng.derive(seed, 'corpus');
  let previousMs = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < docs; i++) {
    // Stratified quantiles keep times in order; the +1 ms nudge makes every timestamp unique.
    let ms = timeAtQuantile((i + rng.float()) / docs);
    if (ms <= previousMs) ms = previousMs + 1;
    if (ms >= CORPUS_END_MS)
      throw new Error(`corpus of ${docs} docs does not fit the window with unique milliseconds`);
    previousMs = ms;

    const model = MODEL_PICKER.pick(rng);
    const status = pickStatus(rng);
    const cacheHit = rng.float() < 0.22;
    const promptTokens = clampInt(rng.logNormal(420, 1.0), 1, 128_000);
    const completionTokens = status === 'ok' ? clampInt(rng.logNormal(180, 0.9), 1, 16_000) : 0;
    const latency =
      status === 'timeout'
        ? rng.int(30_000, 60_000)
        : clampInt(rng.logNormal(model.medianMs, 0.75), 5, 120_000);
    const billedPrompt = cacheHit ? promptTokens * 0.1 : promptTokens;
    const cost = (billedPrompt * model.inPerMTok + completionTokens * model.outPerMTok) / 1e6;

    yield {
      id: docId(i),
      source: {
        '@timestamp': new Date(ms).toISOString(),
        model: model.name,
        provider: model.provider,
        tenant: TENANT_PICKER.pick(rng),
        status,
        latency_ms: latency,
        cost_usd: Math.round(cost * 1e8) / 1e8,
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        cache_hit: cacheHit,
        region: REGION_PICKER.pick(rng),
        message: message(rng, status),
      },
    };
  }
}
