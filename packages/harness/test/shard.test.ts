import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../src/cli/args.js';
import { reproduceCommand } from '../src/cli/benchFlags.js';
import { selectFamilies } from '../src/families/index.js';
import { workloadById } from '../src/families/workloads.js';
import { selectMixed } from '../src/measure/mixed.js';
import { selectSweeps } from '../src/measure/sweep.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/model/settings.js';
import type { RunContext } from '../src/run/context.js';
import { kindStage } from '../src/run/kind.js';
import { diskKind } from '../src/run/kinds/disk.js';
import { knnStage } from '../src/run/kinds/knn.js';
import {
  assignShards,
  KNN_UNIT,
  ownsUnit,
  parseShard,
  type ShardUnit,
  shardSeconds,
  unitOfRow,
  unitsOf,
} from '../src/run/shard.js';
import { dealShard, shardUnits } from '../src/run/shardUnits.js';
import { comparableKey } from '../src/scorecard/comparable.js';
import { sampleCard } from './helpers/card.js';

/** The units of the published 1M matrix (--docs 1m --knn --clients 1,8), from the real row lists. */
function matrix(overrides: Partial<RunSettings> = {}) {
  const settings: RunSettings = {
    ...DEFAULT_SETTINGS,
    docs: 1_000_000,
    knn: true,
    clients: '1,8',
    ...overrides,
  };
  const run = {
    settings,
    corpus: { docs: settings.docs },
    families: selectFamilies(settings.families, workloadById(settings.corpus).families),
    mixedFamilies: selectMixed(settings.families),
    sweepFamilies: selectSweeps(settings.families),
  };
  return { run, units: shardUnits(run) };
}

describe('--shard K/N', () => {
  it('parses K/N and names the fix for anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1/1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/2', '3/2', '1/0', '1/33', '1', 'a/b', '1/2/3', ''])
      expect(parseShard(bad), bad).toMatch(/--shard takes K\/N with 1 <= K <= N <= 32/);
    expect(parseBenchArgs(['--shard', '2/4']).settings.shard).toBe('2/4');
    expect(() => parseBenchArgs(['--shard', '5/4'])).toThrow(/--shard takes K\/N/);
    expect(() => parseBenchArgs(['--shard', '1/2', '--docs', '100k,1m'])).toThrow(/one --docs size/);
    expect(() => parseBenchArgs(['--shard', '1/2', '--aa', 'baseline'])).toThrow(
      /A\/A calibration runs whole/,
    );
  });

  it('writes shard cards away from the published scorecards unless --out says otherwise', () => {
    expect(parseBenchArgs(['--shard', '1/2']).out).toMatch(/\.runs\/shards$/);
    expect(parseBenchArgs([]).out).toMatch(/scorecards$/);
  });

  it('reproduces a shard run with its --shard flag, and a whole run without one', () => {
    const shard = reproduceCommand({ gitRevision: 'abc', settings: { ...DEFAULT_SETTINGS, shard: '1/2' } });
    expect(shard.lines[1]).toContain('--shard 1/2');
    const whole = reproduceCommand({ gitRevision: 'abc', settings: { ...DEFAULT_SETTINGS } });
    expect(whole.lines[1]).not.toContain('--shard');
  });

  it('deals every unit to exactly one shard, the same way every time, keyed in the run order', () => {
    const { units } = matrix();
    const a = assignShards(units, 3);
    expect(assignShards([...units].reverse(), 3)).toEqual(a);
    expect(Object.keys(a)).toEqual(units.map((u) => u.id));
    expect(new Set(Object.values(a))).toEqual(new Set([1, 2, 3]));
    const shards = [1, 2, 3].map((index) => unitsOf({ index, count: 3, assignment: a }));
    expect(shards.flat().sort()).toEqual(units.map((u) => u.id).sort());
    expect(() => assignShards([...units, units[0] as ShardUnit], 2)).toThrow(/listed twice/);
  });

  it("balances the shards within Graham's 4/3 bound of the ideal", () => {
    const { units } = matrix();
    const total = units.reduce((s, u) => s + u.seconds, 0);
    const largest = Math.max(...units.map((u) => u.seconds));
    for (const n of [2, 3, 4, 8]) {
      const seconds = shardSeconds(units, assignShards(units, n), n);
      const ideal = Math.max(total / n, largest);
      expect(Math.max(...seconds), `${n} shards`).toBeLessThanOrEqual((4 / 3) * ideal + 1e-9);
    }
  });

  it('prices the matrix from the plan: read rows by their requests, kNN as one unit', () => {
    const { units } = matrix();
    const byId = new Map(units.map((u) => [u.id, u.seconds]));
    expect(byId.get('ingest.1-client')).toBe(0);
    expect(byId.has(KNN_UNIT)).toBe(true);
    expect(byId.has('ingest.8-clients')).toBe(true);
    expect(byId.get('query.term')).toBeGreaterThan(0);
    // A breadth row runs a third of the timed requests.
    const breadth = matrix().run.families.find((f) => f.breadth);
    if (breadth) expect(byId.get(breadth.id) as number).toBeLessThan(byId.get('query.term') as number);
    expect(unitOfRow('knn.latency')).toBe(KNN_UNIT);
    expect(unitOfRow('knn.recall')).toBe(KNN_UNIT);
    expect(unitOfRow('query.term')).toBe('query.term');
  });

  it('filters each kind of row to the shard it was dealt to', () => {
    const { run } = matrix({ shard: '1/2' });
    const deal = dealShard(run);
    const other = { ...deal, index: 2 };
    const ctx = (shard: typeof deal) => ({ ...run, shard }) as unknown as RunContext;
    const disk = kindStage(diskKind);
    // Exactly one of the two shards measures the disk row, and the kNN rows.
    expect(disk.steps(ctx(deal)) + disk.steps(ctx(other))).toBe(1);
    expect(knnStage.steps(ctx(deal)) + knnStage.steps(ctx(other))).toBe(2);
    expect(ownsUnit(undefined, 'anything')).toBe(true);
    expect(disk.steps({ ...run } as unknown as RunContext)).toBe(1);
  });

  it("keeps a shard card out of whole runs' comparable sets", () => {
    const whole = sampleCard();
    const shard = sampleCard();
    shard.manifest.settings = { ...shard.manifest.settings, shard: '1/2' };
    expect(comparableKey(shard)).not.toBe(comparableKey(whole));
    expect(comparableKey(shard)).toContain('shard 1/2');
    const merged = sampleCard();
    merged.manifest.settings = { ...merged.manifest.settings, shard: '' };
    expect(comparableKey(merged)).toBe(comparableKey(whole));
  });
});
