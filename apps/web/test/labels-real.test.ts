import { describe, expect, it } from 'vitest';
import { intervalLevel, levelText } from '../lib/interval';
import { lagLimit, rowMarkers } from '../lib/markers';
import { loadRealScorecards } from './load-real';

const cards = loadRealScorecards();
const rows = cards.flatMap((card) => card.rows.map((row) => ({ card, row })));

describe('labels agree with the reasons the harness wrote, on every committed card', () => {
  it('has committed cards to check', () => {
    expect(cards.length).toBeGreaterThan(10);
  });

  it('the interval level is the one each reason states', () => {
    const checked = rows.filter(({ row }) => row.ci && /\d+(\.\d+)?% CI/.test(row.reason));
    expect(checked.length).toBeGreaterThan(1000);
    const wrong = checked.filter(({ card, row }) => {
      const stated = /(\d+(?:\.\d+)?)% CI/.exec(row.reason)?.[1];
      const level = intervalLevel(row, card.manifest.settings);
      return level === undefined || `${stated}%` !== levelText(level);
    });
    expect(wrong.map(({ card, row }) => `${card.runId} ${row.id}: ${row.reason.slice(0, 60)}`)).toEqual([]);
  });

  it('a reason that says the machine saturated or the row is on service time has that caveat, and only then', () => {
    const wrong = rows.flatMap(({ card, row }) => {
      const kinds = rowMarkers(row, { maxSendLagP99Ms: lagLimit(card.manifest.settings) }).map((m) => m.kind);
      const says = {
        saturatedMachine: /it saturated the machine/.test(row.reason),
        serviceTime: /scored on service time|fell behind its schedule on both sides/.test(row.reason),
        belowResolution: /below resolution/.test(row.reason),
        remeasured: /re-measured/.test(row.reason),
      };
      const has = {
        saturatedMachine: kinds.includes('machine-saturated'),
        serviceTime: kinds.includes('service-time'),
        belowResolution: kinds.includes('below-resolution'),
        remeasured: kinds.includes('remeasured'),
      };
      // A reason names one cause: an N/A row for different answers does not also mention the lag or
      // the re-measuring, though both happened (the marker still says so).
      const judged = row.verdict !== 'N/A';
      return (Object.keys(says) as (keyof typeof says)[])
        .filter((key) => (judged ? says[key] !== has[key] : says[key] && !has[key]))
        .map((key) => `${card.runId} ${row.id} ${key}: reason ${says[key]}, marker ${has[key]}`);
    });
    expect(wrong).toEqual([]);
  });
});

describe('a TIE says why it is a TIE', () => {
  it('every committed TIE with a ratio gets the explanation its reason gives', async () => {
    const { tieExplanation, TIE_REASON_WORDS } = await import('../lib/tie');
    const ties = rows.filter(({ row }) => row.verdict === 'TIE' && row.ratio !== undefined);
    expect(ties.length).toBeGreaterThan(500);
    const wrong = ties.flatMap(({ card, row }) => {
      const why = tieExplanation(row, card.manifest.settings);
      return why && TIE_REASON_WORDS[why.kind].test(row.reason)
        ? []
        : [`${card.runId} ${row.id}: ${why?.kind} for "${row.reason.slice(0, 90)}"`];
    });
    expect(wrong).toEqual([]);
  });
});
