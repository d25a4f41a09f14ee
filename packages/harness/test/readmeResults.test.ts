import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { README, readCommittedCards } from '../src/report/readmeFiles.js';
import {
  BLOCKS,
  type CommittedCard,
  hasDefaultOptions,
  optionsBeyondDefault,
  pickOtherSets,
  pickScaleCards,
  renderReadme,
  replaceBlock,
  resultsBlock,
} from '../src/report/readmeResults.js';
import { buildScorecard } from '../src/scorecard/build.js';
import { cardFigures } from '../src/scorecard/headline.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { RowResult, Scorecard, SideMeasurement } from '../src/scorecard/schema.js';
import { testManifest } from './helpers/card.js';

const side = (m: Partial<SideMeasurement>): SideMeasurement => ({
  supported: true,
  samples: 600,
  errors: 0,
  ...m,
});

function readRow(id: string, ratio: number, cpuRatio: number): RowResult {
  const [group, family] = id.split('.') as [RowResult['group'], string];
  return {
    id,
    group,
    family,
    title: family,
    unit: 'ms',
    betterIs: 'lower',
    candidate: side({ p50: 1, p99: 3, cpuMsPerRequest: 0.5 }),
    baseline: side({ p50: ratio, p99: 3 * ratio, cpuMsPerRequest: 0.5 * cpuRatio }),
    ratio,
    ci: [ratio * 0.9, ratio * 1.1],
    cpuRatio,
    verdict: ratio > 1.05 ? 'WIN' : 'TIE',
    reason: 'test',
  };
}

function valueRow(
  id: string,
  group: RowResult['group'],
  unit: RowResult['unit'],
  c: number,
  b: number,
): RowResult {
  const higher = unit === 'docs/s' || unit === 'recall' || unit === 'req/s';
  return {
    id,
    group,
    family: id.split('.')[1] as string,
    title: id,
    unit,
    betterIs: higher ? 'higher' : 'lower',
    candidate: side({ samples: 1, value: c }),
    baseline: side({ samples: 1, value: b }),
    ratio: higher ? c / b : b / c,
    verdict: 'WIN',
    reason: 'test',
  };
}

/** A 1M card with every figure the table shows: read rows, ingest at 1 and 8 clients, disk, memory, kNN, both suites. */
function fixtureCard(
  overrides: { docs?: number; settings?: Record<string, string | number | boolean> } = {},
) {
  const rows: RowResult[] = [
    valueRow('ingest.1-client', 'ingest', 'docs/s', 90_000, 30_000),
    readRow('query.term', 4, 8),
    { ...readRow('query.match', 1, 2), belowResolution: true },
    {
      ...readRow('bucket.terms', 2, 4),
      candidate: side({ p50: 1, p99: 3, cpuMsPerRequest: 0.5, sendLagP99: 15 }),
      baseline: side({ p50: 2, p99: 6, cpuMsPerRequest: 2, sendLagP99: 12 }),
    },
    { ...readRow('metric.sum', 1, 1), ratio: undefined, cpuRatio: undefined, verdict: 'N/A' },
    valueRow('memory.rss', 'memory', 'bytes', 100 * 1048576, 1000 * 1048576),
    valueRow('disk.store', 'disk', 'bytes', 12 * 1048576, 16 * 1048576),
    {
      ...readRow('knn.latency', 2, 3),
      group: 'knn',
      candidate: side({ p50: 0.5 }),
      baseline: side({ p50: 1 }),
    },
    valueRow('knn.recall', 'knn', 'recall', 1, 0.9),
    valueRow('throughput.term', 'throughput', 'req/s', 9000, 1800),
    {
      ...readRow('mixed.term', 1.25, 2),
      group: 'mixed',
      candidate: side({ p50: 1, p99: 8 }),
      baseline: side({ p50: 2, p99: 10 }),
      verdict: 'TIE',
    },
    valueRow('ingest.8-clients', 'ingest', 'docs/s', 120_000, 60_000),
  ];
  const card = buildScorecard({
    runId: '20261201T000000Z-abcdef1',
    createdAt: new Date('2026-12-01T00:00:00Z'),
    durationMs: 1_609_000,
    status: 'complete',
    manifest: testManifest(overrides.docs ?? 1_000_000, {
      ...DEFAULT_SETTINGS,
      mixedWriteRate: 2000,
      sweep: true,
      sweepP99Ms: 50,
      knn: true,
      clients: '1,8',
      ...overrides.settings,
    }),
    rows,
  });
  card.floor = { rate: 200, p50: 0.4, p99: 1.25, sendLagP50: 0.01, sendLagP99: 0.3 };
  card.conformance = {
    measuredAt: '2026-12-01',
    baseline: 'OpenSearch 2.19.1',
    cases: 1502,
    baselinePass: 1500,
    candidatePass: 1491,
    areas: [],
    differences: [],
  };
  card.restSuite = {
    suite: 'org.elasticsearch:rest-api-spec:7.10.2',
    measuredAt: '2026-12-01',
    baseline: 'OpenSearch 2.19.1',
    tests: 1335,
    skipped: 100,
    excluded: [],
    baselinePass: 900,
    candidatePass: 850,
    candidateOnly: 3,
    byApi: [],
  };
  return card;
}

const committed = (card: Scorecard, folder = `scorecards/${card.runId}`): CommittedCard => ({
  card,
  folder,
  markdown: renderMarkdown(card),
});

describe('the README results generator', () => {
  it('writes one table for a card from its JSON', () => {
    const block = resultsBlock([committed(fixtureCard())]);
    const table = block.split('\n**1,000,000 documents**')[1]?.split('\n\n**10,000,000')[0];
    expect(table).toBe(
      [
        ' (`npm run bench -- --docs 1m --knn --clients 1,8`): [`scorecards/20261201T000000Z-abcdef1`](scorecards/20261201T000000Z-abcdef1/SCORECARD.md) (revision `abcdef1`, 2026-12-01, 26 min 49 s), everycell 0.1.0 against OpenSearch 2.19.1 on 2 cores.',
        '',
        '| measure | candidate vs baseline (ratio, verdict) |',
        '|---|---|',
        '| verdicts | **WIN 9, LOSE 0, TIE 2, N/A 1** |',
        // exp(mean(ln 4, ln 1, ln 2)) = 2; the N/A row has no ratio.
        '| read rows: p50 ratio, geometric mean | **2x** over 3 rows; 2 at 2x or more |',
        '| engine CPU per request, geometric mean | 4x over 3 rows; lowest 2x (`query.match`) |',
        '| ingest, 1 client | 90,000 docs/s vs 30,000 docs/s (3x, WIN) |',
        '| ingest, 8 clients | 120,000 docs/s vs 60,000 docs/s (2x, WIN) |',
        // query.match sat within twice the floor; bucket.terms lagged past 10 ms on both sides.
        "| read rows the intervals resolve | 2 of 3 (1 forced to a TIE below the floor's resolution; 1 scored on service time, the harness behind its schedule) |",
        "| the harness's floor (its client against a null server, same run) | p50 0.4 ms, p99 1.25 ms (send lag p99 0.3 ms) |",
        '| disk after a force-merge | 12 MiB vs 16 MiB (1.333x, WIN) |',
        '| resident memory after the reads | 100 MiB vs 1,000 MiB (10x, WIN) |',
        '| highest rate with p99 <= 50 ms (`throughput.*`) | term 5x WIN |',
        '| p99 under 2,000 writes/s (`mixed.*`) | term 1.25x TIE |',
        '| kNN p50 | 0.5 ms vs 1 ms (2x, WIN) |',
        '| kNN recall@10 | 1.0000 vs 0.9000 (1.111x, WIN) |',
        '| conformance: differential cases | 1,491 of the 1,500 OpenSearch passes |',
        "| Elasticsearch's REST API tests | 850 of the 900 OpenSearch passes |",
      ].join('\n'),
    );
    expect(block).toContain('**100,000 documents**: no complete card of the default options is committed.');
  });

  it('prints the figures as SCORECARD.md prints them for the same card', () => {
    const card = fixtureCard();
    const md = renderMarkdown(card);
    const line = (id: string) => md.split('\n').find((l) => l.startsWith(`| \`${id}\` |`)) ?? '';
    for (const [id, a, b, ratio] of [
      ['ingest.1-client', '90,000 docs/s', '30,000 docs/s', '3x'],
      ['ingest.8-clients', '120,000 docs/s', '60,000 docs/s', '2x'],
      ['disk.store', '12 MiB', '16 MiB', '1.333x'],
      ['memory.rss', '100 MiB', '1,000 MiB', '10x'],
    ] as const)
      expect(line(id)).toContain(`| ${a} | ${b} | ${ratio} |`);
    expect(md).toContain('| 9 | 0 | 2 | 1 |');
    expect(md).toContain(
      'p50 ratio geometric mean **2x** over 3 rows, 2 at 2x or more; engine CPU per request 4x over 3 rows, lowest 2x (`query.match`).',
    );
    expect(line('throughput.term')).toContain('| 9,000 req/s | 1,800 req/s | 5x |');
    expect(md).toContain('**1,491 of 1,502**');
    expect(md).toContain('**850 of the 900**');
  });

  it('takes the newest complete card of the default options per size, the default matrix exactly at 100k', () => {
    const defaults = { ...DEFAULT_SETTINGS, mixedWriteRate: 2000, sweep: true, sweepP99Ms: 50 };
    const at = (runId: string, docs: number, settings: Record<string, string | number | boolean>) => {
      const card = fixtureCard({ docs, settings: { ...defaults, ...settings } });
      card.runId = runId;
      card.createdAt = `${runId.slice(0, 4)}-${runId.slice(4, 6)}-${runId.slice(6, 8)}T00:00:00.000Z`;
      return committed(card);
    };
    const plain = at('20261201T000000Z-aaaaaaa', 100_000, {});
    const knnLater = at('20261202T000000Z-bbbbbbb', 100_000, { knn: true });
    const otherCorpus = at('20261203T000000Z-ccccccc', 100_000, { corpus: 'wordnet' });
    const oneFamily = at('20261204T000000Z-ddddddd', 1_000_000, { families: 'query.*' });
    const million = at('20261130T000000Z-eeeeeee', 1_000_000, { knn: true, clients: '1,8' });
    const partial = at('20261205T000000Z-fffffff', 1_000_000, {});
    partial.card.status = 'partial';
    // A card merged from shards is not what the scale's command ran on one machine.
    const merged = at('20261206T000000Z-1111111-2shards', 100_000, {});
    merged.card.manifest.shards = [];
    const picked = pickScaleCards([plain, knnLater, otherCorpus, oneFamily, million, partial, merged]);
    expect(picked.map((c) => c?.card.runId)).toEqual([plain.card.runId, million.card.runId, undefined]);
    expect(optionsBeyondDefault(million.card)).toEqual(['--knn', '--clients', '1,8']);
    expect(hasDefaultOptions(otherCorpus.card)).toBe(false);
    expect(pickOtherSets([plain, otherCorpus]).map((c) => c.card.runId)).toEqual([otherCorpus.card.runId]);
  });

  it('replaces only the text between the markers, and refuses a README without them', () => {
    const text = `a\n${BLOCKS.results.start}\nold\n${BLOCKS.results.end}\nb`;
    expect(replaceBlock(text, BLOCKS.results, 'new')).toBe(
      `a\n${BLOCKS.results.start}\nnew\n${BLOCKS.results.end}\nb`,
    );
    expect(() => replaceBlock('no markers', BLOCKS.results, 'x')).toThrow(/no <!-- generated:results/);
  });
});

describe('README.md', () => {
  const cards = readCommittedCards();

  it('carries the results of the committed cards: run `npm run readme` after committing a card', () => {
    const readme = readFileSync(README, 'utf8');
    expect(renderReadme(readme, cards)).toBe(readme);
  });

  it("says each picked card's figures as its committed SCORECARD.md does", () => {
    const picked = pickScaleCards(cards).filter((c): c is CommittedCard => c !== undefined);
    expect(picked.length).toBeGreaterThan(0);
    for (const c of picked) {
      const md = c.markdown ?? '';
      const { WIN, LOSE, TIE } = c.card.counts;
      expect(md).toContain(`| ${WIN} | ${LOSE} | ${TIE} | ${c.card.counts['N/A']} |`);
      const f = cardFigures(c.card);
      // Cards written since SCORECARD.md carries the read rows' geometric means say them too.
      if (f.read && md.includes('p50 ratio geometric mean'))
        expect(md).toContain(
          `**${f.read.geomean.toLocaleString('en-US', { maximumFractionDigits: 2 })}x** over ${f.read.rows} rows`,
        );
      const mib = (x: number) => `${(x / 1048576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
      const docs = (x: number) => `${x.toLocaleString('en-US', { maximumFractionDigits: 0 })} docs/s`;
      for (const [p, unit] of [
        ...f.ingest.map((i) => [i, docs] as const),
        ...(f.disk ? [[f.disk, mib] as const] : []),
        ...(f.memory ? [[f.memory, mib] as const] : []),
      ]) {
        const line = md.split('\n').find((l) => l.startsWith(`| \`${p.id}\` |`)) ?? '';
        expect(line, `${c.folder} ${p.id}`).toContain(
          `| ${unit(p.candidate as number)} | ${unit(p.baseline as number)} |`,
        );
      }
    }
  });
});
