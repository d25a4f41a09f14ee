import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MergeError, mergeCards } from '../src/merge/mergeCards.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { scorecardProblems } from '../src/scorecard/validate.js';
import { sampleCard } from './helpers/card.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';
import { runCli } from './helpers/runCli.js';
import { shortRunArgs } from './helpers/shortRun.js';

/** A deal of the sample card's three rows over two shards, and each shard's card. */
const ASSIGNMENT = { 'ingest.1-client': 1, 'query.term': 2, 'bucket.terms': 1 };

function shardCard(index: number, patch: (card: Scorecard) => void = () => {}): Scorecard {
  const card = sampleCard(`20261122T02300${index}Z-abcdef1`);
  card.createdAt = `2026-11-22T02:30:0${index}.000Z`;
  card.rows = card.rows.filter((r) => ASSIGNMENT[r.id as keyof typeof ASSIGNMENT] === index);
  card.manifest.settings = { ...card.manifest.settings, shard: `${index}/2` };
  card.manifest.shard = { index, count: 2, assignment: ASSIGNMENT };
  card.floor = { rate: 200, p50: 0.5 * index, p99: 2 * index, sendLagP50: 0.1, sendLagP99: 0.3 };
  patch(card);
  return card;
}

describe('merge-cards: shards of one split run into one card', () => {
  it('joins the rows in the run order, tagged with their shard, counts and exit recomputed', () => {
    const merged = mergeCards([shardCard(2), shardCard(1)]);
    expect(merged.rows.map((r) => [r.id, r.shard])).toEqual([
      ['ingest.1-client', 1],
      ['query.term', 2],
      ['bucket.terms', 1],
    ]);
    // The shards' rows are the sample card's: so are the counts.
    expect(merged.counts).toEqual(sampleCard().counts);
    expect(merged.exitCode).toBe(1);
    expect(merged.manifest.shard).toBeUndefined();
    expect(merged.manifest.settings.shard).toBe('');
    expect(merged.manifest.shards?.map((s) => [s.index, s.runId, s.rows])).toEqual([
      [1, '20261122T023001Z-abcdef1', 2],
      [2, '20261122T023002Z-abcdef1', 1],
    ]);
    // The card's floor is the coarsest shard's; each shard's own stays in its record.
    expect(merged.floor?.p99).toBe(4);
    expect(merged.manifest.shards?.[0]?.floor?.p99).toBe(2);
    expect(merged.runId).toBe('20261122T023001Z-abcdef1-2shards');
    expect(scorecardProblems('merged', JSON.parse(JSON.stringify(merged)))).toEqual([]);
    const md = renderMarkdown(merged);
    expect(md).toContain('Merged from 2 shards of one split run');
    expect(md).toContain('- Shard 2: `query.term`');
    expect(md).toContain('every shard ran on the same kind of machine');
    expect(renderMarkdown(shardCard(1))).toContain("it measured 2 of the matrix's 3 measurements");
  });

  it('names the machines when the shards ran on different ones, so the card compares with neither', () => {
    const merged = mergeCards([
      shardCard(1),
      shardCard(2, (c) => {
        c.manifest.machine = { ...c.manifest.machine, cpuModel: 'Other CPU', cores: 4 };
      }),
    ]);
    expect(merged.manifest.machine.cpuModel).toBe('shard 1: Test CPU; shard 2: Other CPU');
    expect(merged.manifest.machine.cores).toBe(2);
    const same = mergeCards([shardCard(1), shardCard(2)]);
    expect(same.manifest.machine.cpuModel).toBe('Test CPU');
  });

  it('a failed shard fails the merged card and says which', () => {
    const merged = mergeCards([
      shardCard(1),
      shardCard(2, (c) => {
        c.status = 'failed';
        c.failure = 'candidate died';
      }),
    ]);
    expect(merged.status).toBe('failed');
    expect(merged.failure).toBe('shard 2 failed: candidate died');
    expect(merged.exitCode).toBe(2);
  });

  it('refuses cards that are not exactly the N shards of one run', () => {
    const refuse = (cards: Scorecard[], message: RegExp) => {
      expect(() => mergeCards(cards)).toThrow(MergeError);
      expect(() => mergeCards(cards)).toThrow(message);
    };
    refuse([], /no scorecards/);
    refuse([sampleCard()], /is a whole run, not a shard/);
    refuse([shardCard(1)], /shard 2\/2 missing/);
    refuse([shardCard(1), shardCard(1)], /shard 1\/2 is given twice/);
    refuse(
      [shardCard(1), shardCard(2, (c) => (c.manifest.gitRevision = '1234567890'))],
      /not a shard of the same run .*revision/,
    );
    refuse(
      [shardCard(1), shardCard(2, (c) => (c.manifest.settings = { ...c.manifest.settings, rate: 100 }))],
      /setting rate: 200 vs 100/,
    );
    refuse(
      [shardCard(1), shardCard(2, (c) => (c.manifest.corpus = { ...c.manifest.corpus, docs: 1 }))],
      /corpus/,
    );
    refuse(
      [
        shardCard(1),
        shardCard(2, (c) => {
          c.rows = sampleCard().rows;
        }),
      ],
      /has row ingest.1-client, dealt to shard 1/,
    );
    refuse(
      [
        shardCard(1),
        shardCard(2, (c) => {
          c.rows = [];
        }),
      ],
      /left query.term unmeasured/,
    );
  });
});

const fakes: FakeEs[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const runIds = async (dir: string) => (await readdir(dir)).filter((f) => /^\d{8}T\d{6}Z-/.test(f)).sort();
const readCard = async (dir: string, id: string) =>
  JSON.parse(await readFile(join(dir, id, 'scorecard.json'), 'utf8')) as Scorecard;

describe('split and merge through the real CLIs (two local shards)', () => {
  it('two shards merged hold the rows of the whole run, each measured once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'everycell-shards-'));
    dirs.push(root);
    const candidate = await startFakeEs({ name: 'fake-fast' });
    const baseline = await startFakeEs({ name: 'fake-slow', delayMs: 5 });
    fakes.push(candidate, baseline);
    const common = [
      ...shortRunArgs(candidate.url, baseline.url),
      '--docs',
      '1000',
      '--families',
      'query.term,query.prefix,metric.avg,bucket.terms',
      '--clients',
      '1,2',
    ];
    const whole = await runCli([...common, '--out', join(root, 'whole')]);
    expect(whole.code, whole.stdout + whole.stderr).not.toBe(2);
    for (const k of [1, 2]) {
      const r = await runCli([...common, '--shard', `${k}/2`, '--out', join(root, 'shards')]);
      expect(r.code, r.stdout + r.stderr).not.toBe(2);
      expect(r.stdout).toContain(`shard ${k}/2:`);
    }
    const shardIds = await runIds(join(root, 'shards'));
    expect(shardIds).toHaveLength(2);
    const merged = await runCli(
      [...shardIds.map((id) => join(root, 'shards', id)), '--out', join(root, 'merged')],
      60_000,
      'src/merge/cli.ts',
    );
    expect(merged.code, merged.stdout + merged.stderr).not.toBe(2);

    const wholeCard = await readCard(join(root, 'whole'), (await runIds(join(root, 'whole')))[0] as string);
    const [mergedId] = await runIds(join(root, 'merged'));
    const mergedCard = await readCard(join(root, 'merged'), mergedId as string);
    expect(mergedId).toMatch(/-2shards$/);
    expect(mergedCard.rows.map((r) => r.id)).toEqual(wholeCard.rows.map((r) => r.id));
    const shards = await Promise.all(shardIds.map((id) => readCard(join(root, 'shards'), id)));
    // The deal splits the matrix: no row in both shards, none in neither, each tagged with its shard.
    const [one, two] = shards.map((c) => c.rows.map((r) => r.id)) as [string[], string[]];
    expect(one.filter((id) => two.includes(id))).toEqual([]);
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBeGreaterThan(0);
    for (const row of mergedCard.rows)
      expect(shards[(row.shard as number) - 1]?.rows.some((r) => r.id === row.id)).toBe(true);
    expect(mergedCard.manifest.shards?.map((s) => s.runId)).toEqual(shardIds);
    // Each row's raw samples travel with it.
    const samples = await readdir(join(root, 'merged', mergedId as string, 'samples'));
    expect(samples).toContain('query.term.json');
    expect(scorecardProblems('merged', mergedCard, mergedId)).toEqual([]);
  }, 240_000);
});
