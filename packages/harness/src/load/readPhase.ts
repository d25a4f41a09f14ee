import type { Family } from '../families/types.js';
import type { Sample, SendResult } from '../model/samples.js';
import type { RunSettings } from '../model/settings.js';
import { Rng } from '../rng.js';
import type { Clock } from './clock.js';
import { engineTimingOf } from './engineTiming.js';
import { outcomeOf, TransportError } from './http.js';
import { runOpenLoop } from './openLoop.js';
import { constantRate } from './scheduler.js';
import type { Side } from './side.js';

/**
 * The wire form of a family request: track_total_hits on every search, request cache off
 * (for `_msearch`, in each search's header line, since the endpoint takes no such parameter).
 */
export function wireRequest(
  family: Family,
  index: string,
  body: Record<string, unknown>,
): { path: string; body: string } {
  if (family.endpoint === '_count') return { path: `/${index}/_count`, body: JSON.stringify(body) };
  if (family.endpoint === '_mget') return { path: `/${index}/_mget`, body: JSON.stringify(body) };
  if (family.endpoint === '_msearch') {
    const searches = body.searches as Record<string, unknown>[];
    const lines = searches.flatMap((s) => [
      JSON.stringify({ request_cache: false }),
      JSON.stringify({ ...s, track_total_hits: true }),
    ]);
    return { path: `/${index}/_msearch`, body: `${lines.join('\n')}\n` };
  }
  return {
    path: `/${index}/_search?request_cache=false`,
    body: JSON.stringify({ ...body, track_total_hits: true }),
  };
}

/** The settings one row runs with: breadth rows get a third of the iterations, half the prewarm. */
export function rowSettings(family: Family, settings: RunSettings): RunSettings {
  if (!family.breadth) return settings;
  return {
    ...settings,
    iterations: Math.max(settings.forks * settings.rounds, Math.ceil(settings.iterations / 3)),
    prewarm: Math.ceil(settings.prewarm / 2),
  };
}

/** `count` request bodies of a family, drawn from a seed derived from the labels (same on both sides). */
export function bodiesFor(
  family: Family,
  seed: number,
  count: number,
  ...labels: (string | number)[]
): Record<string, unknown>[] {
  const rng = Rng.derive(seed, family.id, ...labels);
  return Array.from({ length: count }, () => family.request(rng));
}

export interface Captured {
  /** key "round:i" -> response text of a sampled 2xx response */
  texts: Map<string, string>;
}

/** One open-loop phase of a row on one engine; every `signalEvery`th 2xx body is captured when asked. */
export async function phase(
  side: Side,
  family: Family,
  index: string,
  bodies: Record<string, unknown>[],
  settings: RunSettings,
  clock: Clock,
  kind: Sample['phase'],
  round: number,
  capture?: Captured,
): Promise<Sample[]> {
  const wire = bodies.map((b) => wireRequest(family, index, b));
  const send = async (i: number): Promise<SendResult> => {
    const w = wire[i] as { path: string; body: string };
    try {
      const res = await side.send('POST', w.path, w.body);
      const result: SendResult = outcomeOf(res);
      const engine = engineTimingOf(res.text, res.serverTiming);
      if (engine !== undefined) result.engine = engine;
      if (capture && result.outcome === 'ok' && i % settings.signalEvery === 0) {
        capture.texts.set(`${round}:${i}`, res.text);
      }
      return result;
    } catch (error) {
      if (error instanceof TransportError)
        return { outcome: error.kind === 'timeout' ? 'timeout' : 'transport_error', status: 0 };
      throw error;
    }
  };
  const samples = await runOpenLoop({
    count: wire.length,
    schedule: constantRate(settings.rate),
    clock,
    maxInFlight: settings.connections,
    phase: kind,
    round,
    send,
    shouldStop: () => side.stopped,
  });
  side.check();
  return samples;
}
