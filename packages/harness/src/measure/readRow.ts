import { compareSignals } from '../families/compare.js';
import type { Family, Signal } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { bodiesFor, type Captured, phase, rowSettings, wireRequest } from '../load/readPhase.js';
import type { Side } from '../load/side.js';
import type { ReadRowRaw } from '../model/raw.js';
import { perRound, type RunSettings } from '../model/settings.js';

export { rowSettings, wireRequest } from '../load/readPhase.js';

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

function recordCheck(raw: ReadRowRaw, c: Signal | string, b: Signal | string): void {
  raw.signalChecks++;
  const diff =
    typeof c === 'string' || typeof b === 'string'
      ? `${typeof c === 'string' ? `candidate ${c}` : ''}${typeof b === 'string' ? ` baseline ${b}` : ''}`.trim()
      : compareSignals(c, b);
  if (diff) {
    raw.signalMismatches++;
    raw.mismatch ??= { summary: diff, candidate: c, baseline: b };
  }
}

/**
 * Rounds [raw.rounds, to) of a row, appended to raw: per round warmups and timed open-loop
 * requests on one engine at a time, the order alternating per round (C B, B C, ...) so drift
 * hits both. Sampled responses of the same request index are compared across engines.
 */
export async function measureRounds(
  raw: ReadRowRaw,
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
  to: number,
  onProgress?: (what: string) => void,
): Promise<void> {
  const { family } = raw;
  settings = rowSettings(family, settings);
  const captured = { candidate: { texts: new Map() }, baseline: { texts: new Map() } } satisfies Record<
    string,
    Captured
  >;
  for (let round = raw.rounds; round < to; round++) {
    const order =
      round % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    const warm = bodiesFor(family, settings.seed, settings.warmup, 'warmup', round);
    const timed = bodiesFor(family, settings.seed, perRound(settings), 'round', round);
    for (const role of order) {
      onProgress?.(`${role} round ${round + 1}/${Math.max(to, settings.rounds)}`);
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
      // Renumber so i is unique across rounds within the row (and i / rate is its place in the schedule).
      raw[role].timed.push(...samples.map((s) => ({ ...s, i: s.i + round * timed.length })));
    }
    raw.rounds = round + 1;
  }
  // Same request index on both sides = same body: compare where both answered 2xx.
  for (const [key, cText] of captured.candidate.texts) {
    const bText = captured.baseline.texts.get(key);
    if (bText !== undefined) recordCheck(raw, signalOrError(family, cText), signalOrError(family, bText));
  }
}

/**
 * Measure one read row on both engines: probe (feasibility + result check), then the configured
 * rounds (see measureRounds). Both engines get the identical request sequence.
 */
export async function measureReadRow(
  family: Family,
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
  onProgress?: (what: string) => void,
): Promise<ReadRowRaw> {
  const probeBody = bodiesFor(family, settings.seed, 1, 'probe')[0] as Record<string, unknown>;
  const probeWire = wireRequest(family, index, probeBody);
  const raw: ReadRowRaw = {
    family,
    probeBody,
    candidate: { supported: true, timed: [], warmup: [] },
    baseline: { supported: true, timed: [], warmup: [] },
    rounds: 0,
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
  recordCheck(raw, probes.candidate.signal, probes.baseline.signal);
  await measureRounds(raw, sides, index, settings, clock, settings.rounds, onProgress);
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
