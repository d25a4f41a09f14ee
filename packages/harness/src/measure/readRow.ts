import { compareSignals } from '../families/compare.js';
import type { Family, Signal } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import { addGcPauses, recordGcPauses, settleHeap } from '../load/harnessGc.js';
import { addSched, recordHarnessSched } from '../load/harnessSched.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { bodiesFor, type Captured, phase, rowSettings, wireRequest } from '../load/readPhase.js';
import { type Side, whileFrozen } from '../load/side.js';
import type { ReadRowRaw } from '../model/raw.js';
import { perRound, type RunSettings } from '../model/settings.js';
import type { Role } from '../scorecard/schema.js';

export { rowSettings, wireRequest } from '../load/readPhase.js';

type ProbeResult = { ok: true; signal: Signal; text: string } | { ok: false; error: string };

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
    return { ok: true, signal: family.signal(parsed), text: res.text };
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

/**
 * One comparison of the two engines' answers to the same request; the first difference is kept
 * with the request it was seen on (`body` builds it only then), for the shrinker (src/shrink/).
 */
function recordCheck(
  raw: ReadRowRaw,
  c: Signal | string,
  b: Signal | string,
  body: () => Record<string, unknown> | undefined,
): void {
  raw.signalChecks++;
  const diff =
    typeof c === 'string' || typeof b === 'string'
      ? `${typeof c === 'string' ? `candidate ${c}` : ''}${typeof b === 'string' ? ` baseline ${b}` : ''}`.trim()
      : compareSignals(c, b);
  if (diff) {
    raw.signalMismatches++;
    if (raw.mismatch === undefined) {
      const request = body();
      raw.mismatch = { summary: diff, candidate: c, baseline: b, ...(request ? { request } : {}) };
    }
  }
}

/** Where a row's rounds go: `rounds` more paired rounds, in process execution `fork`. */
export interface RoundsPlan {
  fork: number;
  rounds: number;
}

const ROLES = ['candidate', 'baseline'] as const;

/** CPU of a side, or undefined when it cannot be read (an engine by URL without node stats). */
const cpuOf = (side: Side) => side.cpuNs().catch(() => undefined);

/** The engines a row is timed on: both sides, and the merge-base build when the gate runs one. */
export type RowSides = Record<Role, Side> & { base?: Side };
type SideKey = Role | 'base';

/**
 * The order engines are timed in round `round`: rotated by the round index, so every engine
 * takes every position equally often (two engines: C B, B C, ...; three: C B A, B A C, A C B).
 */
export function roundOrder(keys: readonly SideKey[], round: number): SideKey[] {
  const k = round % keys.length;
  return [...keys.slice(k), ...keys.slice(0, k)];
}

/**
 * `plan.rounds` more rounds of a row in fork `plan.fork`, appended to raw: per round warmups and
 * timed open-loop requests on one engine at a time, the order rotating with the row's round index
 * (roundOrder) so drift hits every engine alike. Each timed phase also records the engine's
 * on-CPU time, and the idle engines' (which should stay near zero). Sampled responses of the same
 * request index are compared across the candidate and the baseline.
 */
export async function measureRounds(
  raw: ReadRowRaw,
  sides: RowSides,
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
  const keys: SideKey[] = [...ROLES, ...(sides.base && raw.base?.supported ? (['base'] as const) : [])];
  const rawOf = (key: SideKey) => (key === 'base' ? (raw.base as NonNullable<ReadRowRaw['base']>) : raw[key]);
  const sideOf = (key: SideKey) => (key === 'base' ? (sides.base as Side) : sides[key]);
  const to = raw.rounds + plan.rounds;
  for (let round = raw.rounds; round < to; round++) {
    const warm = bodiesFor(family, settings.seed, settings.warmup, 'warmup', round);
    const timed = bodiesFor(family, settings.seed, perRound(settings), 'round', round);
    for (const key of roundOrder(keys, round)) {
      onProgress?.(`${key} fork ${plan.fork + 1} round ${round + 1}`);
      const side = sideOf(key);
      const mine = rawOf(key);
      const idle = keys.filter((k) => k !== key);
      // The other engines are frozen from this engine's warmup to its last CPU read, so their
      // idle CPU (recorded below) is a check that nothing else ran on the engine CPUs.
      const { samples, wallNs, cpu0, cpu1, idle0, idle1 } = await whileFrozen(idle.map(sideOf), async () => {
        mine.warmup.push(...(await phase(side, family, index, warm, settings, clock, 'warmup', round)));
        settleHeap();
        const cpu0 = await cpuOf(side);
        const idle0 = await Promise.all(idle.map((k) => cpuOf(sideOf(k))));
        const gcPauses = recordGcPauses();
        const sched = recordHarnessSched();
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
          key === 'base' ? undefined : captured[key],
        );
        const wallNs = Number(clock.now() - t0);
        mine.harnessSched = addSched(mine.harnessSched, sched());
        mine.harnessGc = addGcPauses(mine.harnessGc, await gcPauses());
        const cpu1 = await cpuOf(side);
        const idle1 = await Promise.all(idle.map((k) => cpuOf(sideOf(k))));
        return { samples, wallNs, cpu0, cpu1, idle0, idle1 };
      });
      const sent = samples.filter((x) => x.outcome !== 'dropped').length;
      if (cpu0 !== undefined && cpu1 !== undefined) {
        mine.cpu ??= [];
        mine.cpuSource = side.cpuSource;
        mine.cpu.push({ fork: plan.fork, round, requests: sent, cpuNs: cpu1 - cpu0, wallNs });
      }
      idle.forEach((k, i) => {
        const [a, b] = [idle0[i], idle1[i]];
        if (a === undefined || b === undefined) return;
        const other = rawOf(k);
        other.idle ??= [];
        other.idle.push({ cpuNs: b - a, wallNs });
      });
      // Lay this phase after the engine's earlier timed phases of the row: i unique within the row,
      // atMs the intended send on the engine's own timed schedule (its place in the row's timeline).
      const last = mine.timed[mine.timed.length - 1];
      const offsetMs =
        last === undefined ? 0 : last.atMs + (last.atMs > 0 ? last.atMs / Math.max(last.i, 1) : 0);
      const before = mine.timed.length;
      mine.timed.push(
        ...samples.map((x) => ({ ...x, fork: plan.fork, i: x.i + before, atMs: x.atMs + offsetMs })),
      );
    }
    raw.rounds = round + 1;
  }
  raw.forks = Math.max(raw.forks, plan.fork + 1);
  // Same request index on both sides = same body: compare where both answered 2xx.
  // A key is "round:i": the body is the round's i-th timed body, drawn again only for a difference.
  const bodyOf = (key: string) => () => {
    const [round, i] = key.split(':').map(Number) as [number, number];
    return bodiesFor(family, settings.seed, perRound(settings), 'round', round)[i];
  };
  for (const [key, cText] of captured.candidate.texts) {
    const bText = captured.baseline.texts.get(key);
    if (bText !== undefined)
      recordCheck(raw, signalOrError(family, cText), signalOrError(family, bText), bodyOf(key));
  }
}

/**
 * A read row before its rounds: the probe request on both engines (feasibility: a 4xx means
 * unsupported, and the row is N/A with the engine's error; and the first result check).
 */
export async function probeReadRow(
  family: Family,
  sides: RowSides,
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
    recordCheck(raw, probes.candidate.signal, probes.baseline.signal, () => probeBody);
  if (sides.base) {
    const p = await probe(sides.base, probeWire.path, probeWire.body, family);
    const error = p.ok ? baseDisagrees(probes.candidate, p) : p.error;
    raw.base =
      error === undefined
        ? { supported: true, timed: [], warmup: [] }
        : { supported: false, error, timed: [], warmup: [] };
  }
  return raw;
}

/**
 * Why the merge-base build's answer to the probe rules the row out of the A/B: it differs from
 * this build's, in what the row compares or in size (`took` aside). The base serves a copy of this
 * build's index (run/kinds/read.ts), which it may read otherwise when this build changed what it
 * writes: a base keeping `_source` as bytes, on a copy that stores it as text, found no `_source`,
 * highlighted nothing and spent 23-27% less CPU per request on `feature.highlight` (two gate runs
 * failed on that row); rows whose signal leaves `_source` out differed only in size. A comparison
 * of different work is no verdict on speed.
 */
function baseDisagrees(candidate: ProbeResult, base: ProbeResult & { ok: true }): string | undefined {
  if (!candidate.ok) return undefined;
  const diff = compareSignals(candidate.signal, base.signal);
  const what = 'the merge-base build answered differently from this build';
  if (diff !== undefined) return `${what}: ${diff}`;
  const [mine, theirs] = [sizeTookAside(candidate.text), sizeTookAside(base.text)];
  return mine === theirs ? undefined : `${what}: ${mine} bytes of reply against ${theirs} (took aside)`;
}

/** A reply's length without its `took` values (one per response of an `_msearch`), which vary. */
export const sizeTookAside = (text: string): number => text.replace(/"took":\d+/g, '').length;

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
  sides: RowSides,
  index: string,
  settings: RunSettings,
  fork: number,
  onFamily?: (role: string, family: Family) => void,
): Promise<void> {
  if (settings.prewarm <= 0) return;
  const keys: SideKey[] = [...ROLES, ...(sides.base ? (['base'] as const) : [])];
  for (const role of roundOrder(keys, fork)) {
    const side = role === 'base' ? (sides.base as Side) : sides[role];
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
          const res = await side.send('POST', wire.path, wire.body).catch((error: unknown) => {
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
