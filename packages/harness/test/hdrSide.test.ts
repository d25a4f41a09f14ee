import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/model/samples.js';
import { scorecardProblems } from '../src/scorecard/validate.js';
import { hdrDecode } from '../src/stats/hdr.js';
import { summarizeSide } from '../src/verdict/readRowResult.js';
import { sampleCard } from './helpers/card.js';

function sample(i: number, latencyMs: number, outcome: Sample['outcome'] = 'ok'): Sample {
  return {
    i,
    phase: 'timed',
    round: 0,
    atMs: i * 5,
    outcome,
    status: 200,
    lagMs: 0.01,
    latencyMs,
    serviceMs: latencyMs,
  };
}

describe("a read row side's HDR histogram", () => {
  it('holds every successful timed latency and no failed one', () => {
    const timed = [
      ...Array.from({ length: 400 }, (_, i) => sample(i, 1 + (i % 100) / 100)),
      sample(400, 900, 'http_error'),
      sample(401, 900, 'timeout'),
    ];
    const side = summarizeSide(
      { supported: true, timed, warmup: [] },
      { rate: 200, collapseErrorRate: 0.01 },
    );
    const hdr = hdrDecode(side.hdr as string);
    expect(hdr.count).toBe(400);
    expect(hdr.percentileMs(100)).toBeLessThan(2);
    expect(Math.abs(hdr.percentileMs(50) - (side.p50 as number))).toBeLessThan(0.02);
  });

  it('is absent without a successful latency, and a scorecard carrying one validates', () => {
    const side = summarizeSide(
      { supported: true, timed: [sample(0, 5, 'http_error')], warmup: [] },
      { rate: 200, collapseErrorRate: 0.01 },
    );
    expect(side.hdr).toBeUndefined();
    const card = sampleCard();
    const row = card.rows[1] as (typeof card.rows)[number];
    row.candidate.hdr = summarizeSide(
      { supported: true, timed: [sample(0, 2), sample(1, 3)], warmup: [] },
      { rate: 200, collapseErrorRate: 0.01 },
    ).hdr;
    expect(scorecardProblems('card.json', card)).toEqual([]);
    row.candidate.hdr = 'not base64!';
    expect(scorecardProblems('card.json', card)).toEqual([
      'card.json: rows[1].candidate.hdr: expected a base64 HDR histogram, got "not base64!"',
    ]);
  });
});
