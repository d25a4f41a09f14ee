import type { EngineTiming } from '../model/samples.js';

/** `"took":N` near the start of a search or msearch response (both engines write it first). */
const TOOK = /"took":(\d+)/;
/** One `name;dur=ms` metric of a `Server-Timing` header. */
const METRIC = /([A-Za-z0-9_-]+)\s*;[^,]*?dur=([0-9.]+)/g;

/** The candidate's `Server-Timing` names, as EngineTiming fields. */
const FIELDS: Record<string, keyof EngineTiming> = {
  engine: 'engineMs',
  call: 'callMs',
  service: 'handlerMs',
};

/**
 * What a response says about the engine's own time: its `took` (searched for in the first 64
 * characters only, so a document field named `took` deeper in the body is never read) and the
 * metrics of its `Server-Timing` header. Undefined when it says nothing.
 */
export function engineTimingOf(text: string, serverTiming: string | undefined): EngineTiming | undefined {
  const timing: EngineTiming = {};
  const took = TOOK.exec(text.slice(0, 64));
  if (took) timing.tookMs = Number(took[1]);
  if (serverTiming !== undefined) {
    for (const [, name, dur] of serverTiming.matchAll(METRIC)) {
      const field = FIELDS[name as string];
      const ms = Number(dur);
      if (field !== undefined && Number.isFinite(ms)) timing[field] = ms;
    }
  }
  return Object.keys(timing).length > 0 ? timing : undefined;
}
