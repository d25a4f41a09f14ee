import type { Family } from '../families/types.js';
import { bodiesFor, wireRequest } from '../load/readPhase.js';

/**
 * The count check's input: every read row's requests as the candidate's service hands them to
 * the engine, one JSON object per line (the runner binary's `plan.rs` reads them). A row's
 * stream is the bench's own: its first warm-up round and the first requests of its first timed
 * round (`bodiesFor` with the same labels), on the wire exactly as `wireRequest` sends them, so
 * the same seed gives the same bytes on every machine and every build.
 */
export interface WorkRequest {
  row: string;
  phase: 'warmup' | 'timed';
  endpoint: Family['endpoint'];
  index: string;
  /** URL parameters as the service passes them to the addon: a JSON object of strings, "" for none. */
  params: string;
  body: string;
}

export interface StreamSizes {
  /** Requests sent before a row's timed ones, never counted. */
  warmup: number;
  /** Requests counted per row. */
  timed: number;
}

/** As `packages/engine-napi/ts/engine.ts` turns URL parameters into the addon's argument. */
const paramsJson = (params: URLSearchParams): string => {
  const entries = [...params.entries()];
  return entries.length === 0 ? '' : JSON.stringify(Object.fromEntries(entries));
};

/** One wire request (path and body) as the engine call the service makes for it. */
export function engineRequest(
  family: Family,
  phase: WorkRequest['phase'],
  wire: { path: string; body: string },
): WorkRequest {
  const url = new URL(wire.path, 'http://service.invalid');
  const [index, endpoint] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (index === undefined || endpoint !== family.endpoint)
    throw new Error(`${family.id}: unexpected wire path ${wire.path} for endpoint ${family.endpoint}`);
  return {
    row: family.id,
    phase,
    endpoint: family.endpoint,
    index,
    params: paramsJson(url.searchParams),
    body: wire.body,
  };
}

/** Every row's warm-up then timed requests, rows in the order given. Deterministic in the seed. */
export function requestStream(
  families: readonly Family[],
  index: string,
  seed: number,
  sizes: StreamSizes,
): WorkRequest[] {
  return families.flatMap((family) => {
    const warm = bodiesFor(family, seed, sizes.warmup, 'warmup', 0);
    const timed = bodiesFor(family, seed, sizes.timed, 'round', 0);
    return [
      ...warm.map((b) => engineRequest(family, 'warmup', wireRequest(family, index, b))),
      ...timed.map((b) => engineRequest(family, 'timed', wireRequest(family, index, b))),
    ];
  });
}

/** The file the runner reads: one request per line. */
export const toNdjson = (requests: readonly WorkRequest[]): string =>
  requests.map((r) => `${JSON.stringify(r)}\n`).join('');
