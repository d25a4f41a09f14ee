import type { MemorySideRaw } from '../model/raw.js';
import type { Role, RowResult, SideMeasurement } from '../scorecard/schema.js';
import { settleSingleMeasurement } from './singleMeasurement.js';

export const MEMORY_ROW_ID = 'memory.rss';

export const MEMORY_ROW_META = {
  id: MEMORY_ROW_ID,
  group: 'memory',
  family: 'rss',
  title: 'resident memory (VmRSS) of the engine process and its children, after the read rows',
  unit: 'bytes',
  betterIs: 'lower',
} as const;

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

function summarize(raw: MemorySideRaw): SideMeasurement {
  const m: SideMeasurement = { supported: raw.supported, samples: raw.detail ? 1 : 0, errors: 0 };
  if (raw.error) m.error = raw.error;
  if (raw.detail) {
    m.value = raw.detail.rssBytes;
    m.memory = raw.detail;
  }
  return m;
}

/** "baseline java pid 412: peak (VmHWM) 1480.2 MiB, anon 1210.0 MiB + file 270.2 MiB; JVM heap -Xms1024m ..." */
function sideNote(role: Role, raw: MemorySideRaw): string | undefined {
  const d = raw.detail;
  if (!d) return undefined;
  if (d.source === 'nodes-stats') {
    const nodes = (d.nodes ?? []).map((n) => `${n.name} ${mib(n.bytes)}`).join(', ');
    const bound = d.lowerBound ? ', a lower bound of its resident memory (the API reports no RSS)' : '';
    return `${role} by URL, from _nodes/stats ${d.field}${bound}: ${nodes}`;
  }
  const [root, ...children] = d.processes;
  const who = `${role} ${root?.name ?? '?'} pid ${root?.pid ?? '?'}${children.length > 0 ? ` + ${children.length} child process${children.length === 1 ? '' : 'es'}` : ''}`;
  const split =
    d.rssAnonBytes !== undefined && d.rssFileBytes !== undefined
      ? `, anon ${mib(d.rssAnonBytes)} + file ${mib(d.rssFileBytes)}`
      : '';
  const preTouched = d.jvmHeap?.includes('-XX:+AlwaysPreTouch')
    ? ': the whole heap is resident from the start'
    : '';
  const heap = d.jvmHeap ? `; JVM heap ${d.jvmHeap}${preTouched}` : '';
  const restarted =
    raw.restarts > 0
      ? `; restarted ${raw.restarts} time${raw.restarts === 1 ? '' : 's'} during the run, so this process did not serve all of it`
      : '';
  const peak = d.hwmBytes === undefined ? '' : `: peak (VmHWM) ${mib(d.hwmBytes)}`;
  return `${who}${peak}${split}${heap}${restarted}`;
}

/**
 * Memory row: VmRSS of each engine's process tree from /proc, read once after the read rows.
 * ratio = baseline RSS / candidate RSS (> 1: the candidate holds less memory).
 */
export function memoryRowResult(
  sides: { candidate: MemorySideRaw; baseline: MemorySideRaw },
  margin: number,
): RowResult {
  const c = sides.candidate;
  const b = sides.baseline;
  const candidate = summarize(c);
  const baseline = summarize(b);
  const row: RowResult = {
    ...MEMORY_ROW_META,
    request: {
      read: '/proc/<pid>/status',
      fields: ['VmRSS', 'VmHWM'],
      children: 'summed',
      ...([c, b].some((x) => x.detail?.source === 'nodes-stats')
        ? { byUrl: 'GET /_nodes/stats/process (jvm where it reports no resident memory), nodes summed' }
        : {}),
    },
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
  };
  const cRss = c.detail?.rssBytes;
  const bRss = b.detail?.rssBytes;
  if (c.supported && b.supported && cRss && bRss) row.ratio = Math.round((bRss / cRss) * 1000) / 1000;
  const notes = [sideNote('candidate', c), sideNote('baseline', b)].filter((n) => n !== undefined);
  settleSingleMeasurement(row, margin, notes.join('; '));
  return boundedVerdict(row, c.detail?.lowerBound === true, b.detail?.lowerBound === true);
}

/**
 * A side measured as a lower bound (a JVM by URL) can only lose what the bound already shows:
 * the candidate's WIN stands against a baseline bound (the real figure is higher still), and its
 * LOSE stands when its own figure is the bound. Any other verdict could be the bound's doing: N/A.
 */
function boundedVerdict(row: RowResult, candidateBound: boolean, baselineBound: boolean): RowResult {
  if (!candidateBound && !baselineBound) return row;
  const holds = (row.verdict === 'WIN' && !candidateBound) || (row.verdict === 'LOSE' && !baselineBound);
  if (holds || row.verdict === 'N/A') return row;
  const which = [candidateBound ? 'candidate' : '', baselineBound ? 'baseline' : '']
    .filter(Boolean)
    .join(' and ');
  row.reason = `not comparable: the ${which} figure is a lower bound, so a ${row.verdict} could be the bound's (${row.reason})`;
  row.verdict = 'N/A';
  delete row.ratio;
  return row;
}
