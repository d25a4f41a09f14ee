/** Small typed scorecards and waivers for the gate's tests (gate.test.ts, gateCli.test.ts). */

import type { Waiver } from '../../src/gate/waivers.js';
import { buildScorecard } from '../../src/scorecard/build.js';
import type { RowResult, Scorecard, Verdict } from '../../src/scorecard/schema.js';
import { testManifest } from './card.js';

// Following src/scorecard/schema.ts.
export const TODAY = '2026-11-22';

export function row(id: string, verdict: Verdict): RowResult {
  const measured = verdict !== 'N/A';
  const ratio = verdict === 'WIN' ? 1.5 : verdict === 'LOSE' ? 0.5 : 1;
  return {
    id,
    group: id.startsWith('ingest') ? 'ingest' : 'query',
    family: id.split('.')[1] ?? id,
    title: `${id} title`,
    unit: 'ms',
    betterIs: 'lower',
    candidate: measured
      ? { supported: true, samples: 300, errors: 0, p50: 1, p99: 3 }
      : { supported: false, samples: 0, errors: 0, error: 'HTTP 400 parsing_exception' },
    baseline: { supported: true, samples: 300, errors: 0, p50: ratio, p99: 3 * ratio },
    ...(measured ? { ratio, ci: [ratio * 0.9, ratio * 1.1] as [number, number] } : {}),
    verdict,
    reason: measured
      ? `ratio ${ratio.toFixed(3)} (${verdict} reason for ${id})`
      : `not comparable, candidate: HTTP 400 parsing_exception (${id})`,
  };
}

export interface CardSpec {
  rows: Record<string, Verdict>;
  status?: Scorecard['status'];
  failure?: string;
  docs?: number;
  runId?: string;
  createdAt?: string;
}

export function card(spec: CardSpec): Scorecard {
  const docs = spec.docs ?? 20_000;
  const manifest = testManifest(docs, { docs, iterations: 300, rounds: 2, families: '*' });
  const args: Parameters<typeof buildScorecard>[0] = {
    runId: spec.runId ?? '20261122T030000Z-abcdef1',
    createdAt: new Date(spec.createdAt ?? '2026-11-22T03:00:00Z'),
    durationMs: 1000,
    status: spec.status ?? 'complete',
    manifest,
    rows: Object.entries(spec.rows).map(([id, verdict]) => row(id, verdict)),
  };
  if (spec.failure) args.failure = spec.failure;
  return buildScorecard(args);
}

export const waiver = (rowId: string, expires: string, kind: Waiver['kind'] = 'lose'): Waiver => ({
  row: rowId,
  kind,
  reason: `accepted while ${rowId} is reworked`,
  who: '@octo',
  expires,
});

export const CLEAN = {
  'ingest.1-client': 'WIN',
  'query.term': 'TIE',
  'query.match': 'WIN',
  'bucket.terms': 'N/A',
} as const;
