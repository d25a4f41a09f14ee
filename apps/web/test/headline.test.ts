import { describe, expect, it } from 'vitest';
import { geometricMean, headline, isReadRow, ratioDefinition } from '../lib/headline';
import { loadFixtures } from './load-fixtures';

const newest = loadFixtures()
  .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  .at(-1);
if (!newest) throw new Error('no fixtures');

describe('headline', () => {
  it('is the geometric mean of the read rows’ ratios (exp of the mean log), N/A rows left out', () => {
    const read = newest.rows.filter((row) => isReadRow(row) && row.ratio !== undefined);
    const expected = Math.exp(
      read.reduce((sum, row) => sum + Math.log(row.ratio as number), 0) / read.length,
    );
    const summary = headline(newest);
    expect(summary.geomean).toBeCloseTo(expected, 10);
    expect(summary.readRows).toBe(read.length);
    expect(summary.atLeastTwice).toBe(read.filter((row) => (row.ratio as number) >= 2).length);
    // Ingest, sweeps, disk, memory are not read rows.
    expect(read.some((row) => row.group === 'ingest' || row.group === 'throughput')).toBe(false);
  });

  it('names every LOSE, TIE and N/A row, and the CPU ratio where the run measured it', () => {
    const summary = headline(newest);
    expect(summary.lose.map((row) => row.id)).toEqual(
      newest.rows.filter((row) => row.verdict === 'LOSE').map((row) => row.id),
    );
    expect(summary.na.map((row) => row.id)).toContain('query.phrase');
    expect(summary.cpu?.rows).toBeGreaterThan(0);
    const old = loadFixtures().find((card) => card.schemaVersion === 1);
    expect(old && headline(old).cpu).toBeUndefined();
  });

  it('geometricMean ignores what a log cannot take', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4);
    expect(geometricMean([0, Number.NaN])).toBeUndefined();
  });
});

describe('ratioDefinition', () => {
  it('says the same direction for every unit: above 1 the candidate is better', () => {
    expect(ratioDefinition({ unit: 'ms', group: 'query' })).toBe(
      'baseline p50 / candidate p50: above 1 the candidate is faster',
    );
    expect(ratioDefinition({ unit: 'ms', group: 'mixed' })).toMatch(/^baseline p99 \/ candidate p99/);
    expect(ratioDefinition({ unit: 'bytes', group: 'memory' })).toBe(
      'baseline bytes / candidate bytes: above 1 the candidate uses less memory',
    );
    expect(ratioDefinition({ unit: 'bytes', group: 'disk' })).toMatch(/less disk$/);
    expect(ratioDefinition({ unit: 'docs/s', group: 'ingest' })).toMatch(
      /^candidate docs\/s \/ baseline docs\/s/,
    );
    for (const unit of ['ms', 'docs/s', 'bytes', 'recall', 'req/s'] as const) {
      expect(ratioDefinition({ unit, group: 'query' })).toContain('above 1 the candidate');
    }
  });
});
