import type { Clock } from '../load/clock.js';
import { phase } from '../load/readPhase.js';
import type { Side } from '../load/side.js';
import type { ReadRowRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';

/**
 * Cache probe, beside the varied-parameter rounds: the row's probe request repeated
 * `settings.cacheProbe` times per engine, open loop at the run's rate, one engine at a time.
 * An engine answering the identical request far faster than varied ones is caching something
 * the varied requests cannot reuse (request_cache=false is sent on both). Only a flag: the
 * verdict rests on the varied rounds. Skipped for rows that cannot be compared.
 */
export async function probeCache(
  raw: ReadRowRaw,
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
): Promise<void> {
  if (settings.cacheProbe <= 0 || raw.mismatch) return;
  if (!raw.candidate.supported || !raw.baseline.supported) return;
  const bodies = Array.from({ length: settings.cacheProbe }, () => raw.probeBody);
  // Rounds alternate C B, B C, ...: after an even count the candidate ran last, so the baseline goes first.
  const order =
    raw.rounds % 2 === 0 ? (['baseline', 'candidate'] as const) : (['candidate', 'baseline'] as const);
  for (const role of order) {
    raw[role].repeated = await phase(sides[role], raw.family, index, bodies, settings, clock, 'timed', 0);
  }
}
