import { compareSignals } from '../families/compare.js';
import type { Family, Signal } from '../families/types.js';
import { Rng } from '../rng.js';
import type { Mismatch } from '../scorecard/schema.js';
import type { Clock } from './clock.js';
import { esErrorSummary, outcomeOf, TransportError } from './http.js';
import { runOpenLoop } from './openLoop.js';
import type { Sample, SendResult } from './samples.js';
import { constantRate } from './scheduler.js';
import { perRound, type RunSettings } from './settings.js';
import type { Side } from './side.js';

export interface SideRowRaw {
  supported: boolean;
  error?: string;
  timed: Sample[];
  warmup: Sample[];
}

export interface ReadRowRaw {
  family: Family;
  probeBody: Record<string, unknown>;
  candidate: SideRowRaw;
  baseline: SideRowRaw;
  /** Pairs of responses whose signals were compared (probe included). */
  signalChecks: number;
  signalMismatches: number;
  mismatch?: Mismatch;
}

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
    iterations: Math.max(settings.rounds, Math.ceil(settings.iterations / 3)),
    prewarm: Math.ceil(settings.prewarm / 2),
  };
}

type ProbeResult = { ok: true; signal: Signal } | { ok: false; error: string };

async function probe(side: Side, path: string, body: string, family: Family): Promise<ProbeResult> {
  let res: Awaited<ReturnType<Side['send']>>;
  try {
    res = await side.send('POST', path, body);
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, error: `probe failed: ${error.message}` };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    parsed = res.text;
  }
  if (res.status < 200 || res.status >= 300) return { ok: false, error: esErrorSummary(res.status, parsed) };
  try {
    return { ok: true, signal: family.signal(parsed) };
  } catch (error) {
    return { ok: false, error: `malformed response: ${(error as Error).message}` };
  }
}

function signalOrError(family: Family, text: string): Signal | string {
  try {
    return family.signal(JSON.parse(text));
  } catch (error) {
    return `malformed response: ${(error as Error).message}`;
  }
}

interface Captured {
  /** key "round:i" -> response text of a sampled 2xx response */
  texts: Map<string, string>;
}

async function phase(
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
      const result = outcomeOf(res);
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

function bodiesFor(
  family: Family,
  seed: number,
  count: number,
  ...labels: (string | number)[]
): Record<string, unknown>[] {
  const rng = Rng.derive(seed, family.id, ...labels);
  return Array.from({ length: count }, () => family.request(rng));
}

/**
 * Measure one read row on both engines: probe (feasibility + result check), then per round
 * warmups and timed open-loop requests on one engine at a time, order alternating per round
 * (C B, B C, ...) so drift hits both. Both engines get the identical request sequence.
 */
export async function measureReadRow(
  family: Family,
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
  onProgress?: (what: string) => void,
): Promise<ReadRowRaw> {
  settings = rowSettings(family, settings);
  const probeBody = bodiesFor(family, settings.seed, 1, 'probe')[0] as Record<string, unknown>;
  const probeWire = wireRequest(family, index, probeBody);
  const raw: ReadRowRaw = {
    family,
    probeBody,
    candidate: { supported: true, timed: [], warmup: [] },
    baseline: { supported: true, timed: [], warmup: [] },
    signalChecks: 0,
    signalMismatches: 0,
  };
  const probes = {
    candidate: await probe(sides.candidate, probeWire.path, probeWire.body, family),
    baseline: await probe(sides.baseline, probeWire.path, probeWire.body, family),
  };
  for (const role of ['candidate', 'baseline'] as const) {
    const p = probes[role];
    if (!p.ok) raw[role] = { supported: false, error: p.error, timed: [], warmup: [] };
  }
  if (!probes.candidate.ok || !probes.baseline.ok) return raw;

  const recordCheck = (c: Signal | string, b: Signal | string) => {
    raw.signalChecks++;
    const diff =
      typeof c === 'string' || typeof b === 'string'
        ? `${typeof c === 'string' ? `candidate ${c}` : ''}${typeof b === 'string' ? ` baseline ${b}` : ''}`.trim()
        : compareSignals(c, b);
    if (diff) {
      raw.signalMismatches++;
      raw.mismatch ??= { summary: diff, candidate: c, baseline: b };
    }
  };
  recordCheck(probes.candidate.signal, probes.baseline.signal);

  const captured = { candidate: { texts: new Map() }, baseline: { texts: new Map() } } satisfies Record<
    string,
    Captured
  >;
  for (let round = 0; round < settings.rounds; round++) {
    const order =
      round % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    const warm = bodiesFor(family, settings.seed, settings.warmup, 'warmup', round);
    const timed = bodiesFor(family, settings.seed, perRound(settings), 'round', round);
    for (const role of order) {
      onProgress?.(`${role} round ${round + 1}/${settings.rounds}`);
      const side = sides[role];
      raw[role].warmup.push(...(await phase(side, family, index, warm, settings, clock, 'warmup', round)));
      const samples = await phase(
        side,
        family,
        index,
        timed,
        settings,
        clock,
        'timed',
        round,
        captured[role],
      );
      // Renumber so i is unique across rounds within the row.
      raw[role].timed.push(...samples.map((s) => ({ ...s, i: s.i + round * timed.length })));
    }
  }

  // Same request index on both sides = same body: compare where both answered 2xx.
  for (const [key, cText] of captured.candidate.texts) {
    const bText = captured.baseline.texts.get(key);
    if (bText !== undefined) recordCheck(signalOrError(family, cText), signalOrError(family, bText));
  }
  return raw;
}

/**
 * Before any row is timed: `prewarm` untimed requests of every selected family to each engine,
 * one engine at a time, so a JIT-compiled engine (and the harness itself) is measured warm.
 */
export async function prewarm(
  families: readonly Family[],
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
  onFamily?: (role: string, family: Family) => void,
): Promise<void> {
  if (settings.prewarm <= 0) return;
  for (const role of ['candidate', 'baseline'] as const) {
    for (const family of families) {
      const s = rowSettings(family, settings);
      if (s.prewarm <= 0) continue;
      onFamily?.(role, family);
      const bodies = bodiesFor(family, s.seed, s.prewarm, 'prewarm');
      // An engine that refuses the row (4xx) gets nothing to warm: its probe will say N/A.
      const first = wireRequest(family, index, bodies[0] as Record<string, unknown>);
      const res = await sides[role].send('POST', first.path, first.body).catch((error: unknown) => {
        if (error instanceof TransportError) return { status: 0, text: '' };
        throw error;
      });
      if (res.status >= 400 && res.status < 500) continue;
      await phase(sides[role], family, index, bodies.slice(1), s, clock, 'warmup', 0);
    }
  }
}
