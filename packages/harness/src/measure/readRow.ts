import { compareSignals } from '../families/compare.js';
import type { Family, Signal } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { bodiesFor, type Captured, phase, rowSettings, wireRequest } from '../load/readPhase.js';
import type { Side } from '../load/side.js';
import type { ReadRowRaw } from '../model/raw.js';
import { perRound, type RunSettings } from '../model/settings.js';
import type { Role } from '../scorecard/schema.js';

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

/** Where a row's rounds go: `rounds` more paired rounds, in process execution `fork`. */
export interface RoundsPlan {
  fork: number;
  rounds: number;
}

const ROLES = ['candidate', 'baseline'] as const;

/** CPU of a side, or undefined when it cannot be read (an engine given by URL). */
const cpuOf = (side: Side) => side.cpuNs().catch(() => undefined);

/**
 * `plan.rounds` more rounds of a row in fork `plan.fork`, appended to raw: per round warmups and
 * timed open-loop requests on one engine at a time, the order alternating with the row's round
 * index (C B, B C, ...) so drift hits both. Each timed phase also records the engine's on-CPU
 * time (and the idle engine's, which should stay near zero). Sampled responses of the same
 * request index are compared across engines.
 */
export async function measureRounds(
  raw: ReadRowRaw,
  sides: Record<Role, Side>,
  index: string,
  settings: RunSettings,
  clock: Clock,
  plan: RoundsPlan,
  onProgress?: (what: string) => void,
): Promise<void> {
  const { family } = raw;
  settings = rowSettings(family, settings);
  const captured = { candidate: { texts: new Map() }, baseline: { texts: new Map() } } satisfies Record<
    string,
    Captured
  >;
  const to = raw.rounds + plan.rounds;
  for (let round = raw.rounds; round < to; round++) {
    const order = round % 2 === 0 ? ROLES : ([...ROLES].reverse() as Role[]);
    const warm = bodiesFor(family, settings.seed, settings.warmup, 'warmup', round);
    const timed = bodiesFor(family, settings.seed, perRound(settings), 'round', round);
    for (const role of order) {
      onProgress?.(`${role} fork ${plan.fork + 1} round ${round + 1}`);
      const side = sides[role];
      const other = sides[role === 'candidate' ? 'baseline' : 'candidate'];
      raw[role].warmup.push(...(await phase(side, family, index, warm, settings, clock, 'warmup', round)));
      const [cpu0, otherCpu0] = [await cpuOf(side), await cpuOf(other)];
      const t0 = clock.now();
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
      const wallNs = Number(clock.now() - t0);
      const [cpu1, otherCpu1] = [await cpuOf(side), await cpuOf(other)];
      const sent = samples.filter((x) => x.outcome !== 'dropped').length;
      if (cpu0 !== undefined && cpu1 !== undefined) {
        raw[role].cpu ??= [];
        raw[role].cpu.push({ fork: plan.fork, round, requests: sent, cpuNs: cpu1 - cpu0, wallNs });
      }
      const otherRole = role === 'candidate' ? 'baseline' : 'candidate';
      if (otherCpu0 !== undefined && otherCpu1 !== undefined) {
        raw[otherRole].idle ??= [];
        raw[otherRole].idle.push({ cpuNs: otherCpu1 - otherCpu0, wallNs });
      }
      // Lay this phase after the engine's earlier timed phases of the row: i unique within the row,
      // atMs the intended send on the engine's own timed schedule (its place in the row's timeline).
      const earlier = raw[role].timed;
      const last = earlier[earlier.length - 1];
      const offsetMs =
        last === undefined ? 0 : last.atMs + (last.atMs > 0 ? last.atMs / Math.max(last.i, 1) : 0);
      const base = earlier.length;
      raw[role].timed.push(
        ...samples.map((x) => ({ ...x, fork: plan.fork, i: x.i + base, atMs: x.atMs + offsetMs })),
      );
    }
    raw.rounds = round + 1;
  }
  raw.forks = Math.max(raw.forks, plan.fork + 1);
  // Same request index on both sides = same body: compare where both answered 2xx.
  for (const [key, cText] of captured.candidate.texts) {
    const bText = captured.baseline.texts.get(key);
    if (bText !== undefined) recordCheck(raw, signalOrError(family, cText), signalOrError(family, bText));
  }
}

/**
 * A read row before its rounds: the probe request on both engines (feasibility: a 4xx means
 * unsupported, and the row is N/A with the engine's error; and the first result check).
 */
export async function probeReadRow(
  family: Family,
  sides: Record<Role, Side>,
  index: string,
  settings: RunSettings,
): Promise<ReadRowRaw> {
  const probeBody = bodiesFor(family, settings.seed, 1, 'probe')[0] as Record<string, unknown>;
  const probeWire = wireRequest(family, index, probeBody);
  const raw: ReadRowRaw = {
    family,
    probeBody,
    candidate: { supported: true, timed: [], warmup: [] },
    baseline: { supported: true, timed: [], warmup: [] },
    rounds: 0,
    forks: 0,
    signalChecks: 0,
    signalMismatches: 0,
  };
  const probes = {
    candidate: await probe(sides.candidate, probeWire.path, probeWire.body, family),
    baseline: await probe(sides.baseline, probeWire.path, probeWire.body, family),
  };
  for (const role of ROLES) {
    const p = probes[role];
    if (!p.ok) raw[role] = { supported: false, error: p.error, timed: [], warmup: [] };
  }
  if (probes.candidate.ok && probes.baseline.ok)
    recordCheck(raw, probes.candidate.signal, probes.baseline.signal);
  return raw;
}

/** Whether a probed row can be timed: both engines answered the probe. */
export const measurable = (raw: ReadRowRaw) => raw.candidate.supported && raw.baseline.supported;

/**
 * Measure one read row on both engines in one fork: the probe, then `settings.rounds` rounds
 * (see measureRounds). Both engines get the identical request sequence.
 */
export async function measureReadRow(
  family: Family,
  sides: Record<Role, Side>,
  index: string,
  settings: RunSettings,
  clock: Clock,
  onProgress?: (what: string) => void,
): Promise<ReadRowRaw> {
  const raw = await probeReadRow(family, sides, index, settings);
  if (measurable(raw))
    await measureRounds(raw, sides, index, settings, clock, { fork: 0, rounds: settings.rounds }, onProgress);
  return raw;
}

/** Prewarm requests in flight per engine: a slow row's requests overlap, as on the open-loop schedule. */
const PREWARM_IN_FLIGHT = 4;

/**
 * Before any row is timed in a fork: `prewarm` untimed requests of every given family to each
 * engine, one engine at a time (the first engine alternates with the fork), so a JIT-compiled
 * engine (and the harness itself) is measured warm. Sent back to back, a few in flight, not on
 * the open-loop schedule: nothing here is timed, and a fork should not spend minutes warming.
 */
export async function prewarm(
  families: readonly Family[],
  sides: Record<Role, Side>,
  index: string,
  settings: RunSettings,
  fork: number,
  onFamily?: (role: string, family: Family) => void,
): Promise<void> {
  if (settings.prewarm <= 0) return;
  const order = fork % 2 === 0 ? ROLES : ([...ROLES].reverse() as Role[]);
  for (const role of order) {
    for (const family of families) {
      const s = rowSettings(family, settings);
      if (s.prewarm <= 0) continue;
      onFamily?.(role, family);
      const wires = bodiesFor(family, s.seed, s.prewarm, 'prewarm').map((body) =>
        wireRequest(family, index, body),
      );
      let next = 0;
      let refused = false;
      const worker = async () => {
        while (!refused && next < wires.length) {
          const wire = wires[next++] as (typeof wires)[number];
          const res = await sides[role].send('POST', wire.path, wire.body).catch((error: unknown) => {
            if (error instanceof TransportError) return { status: 0, text: '' };
            throw error;
          });
          // An engine that refuses the row (4xx) gets nothing more to warm: its probe will say N/A.
          if (res.status >= 400 && res.status < 500) refused = true;
        }
      };
      await Promise.all(Array.from({ length: PREWARM_IN_FLIGHT }, worker));
    }
  }
}
