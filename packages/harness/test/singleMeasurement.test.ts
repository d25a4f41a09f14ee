import { describe, expect, it } from 'vitest';
import type { DiskSideRaw } from '../src/model/raw.js';
import { diskRowResult } from '../src/verdict/diskRowResult.js';
import { ingestCellRowResult } from '../src/verdict/ingestCellRowResult.js';
import { decideSingleMeasurement } from '../src/verdict/singleMeasurement.js';

const ok = { supported: true, samples: 1, errors: 0 };

describe('single-measurement verdicts', () => {
  it('WIN or LOSE only beyond the margin, TIE inside it, and says there is no interval', () => {
    const at = (ratio: number) =>
      decideSingleMeasurement({ candidate: ok, baseline: ok, ratio, margin: 0.1 });
    expect(at(1.1).verdict).toBe('WIN');
    expect(at(1.09).verdict).toBe('TIE');
    expect(at(1 / 1.1).verdict).toBe('LOSE');
    expect(at(0.92).verdict).toBe('TIE');
    expect(at(1.5).reason).toMatch(/one measurement per engine \(no interval\).*10% margin/);
    const na = decideSingleMeasurement({
      candidate: { ...ok, supported: false, error: 'HTTP 400' },
      baseline: ok,
      ratio: 2,
      margin: 0.1,
    });
    expect(na).toEqual({ verdict: 'N/A', reason: 'not comparable, candidate: HTTP 400' });
  });

  it('disk: bytes and bytes/doc, N/A when the counts differ, a refused force-merge is said', () => {
    const side = (bytes: number, count: number, extra: Partial<DiskSideRaw> = {}): DiskSideRaw => ({
      supported: true,
      forceMerged: true,
      bytes,
      count,
      ...extra,
    });
    const row = diskRowResult({ candidate: side(500, 10), baseline: side(1000, 10) }, 10, 0.1);
    expect(row).toMatchObject({
      id: 'disk.store',
      group: 'disk',
      unit: 'bytes',
      betterIs: 'lower',
      ratio: 2,
      verdict: 'WIN',
    });
    expect(row.reason).toMatch(/candidate 50.0 B\/doc, baseline 100.0 B\/doc/);
    const lose = diskRowResult(
      {
        candidate: side(1200, 10, {
          forceMerged: false,
          forceMergeNote: 'force-merge refused (HTTP 400), measured after refresh',
        }),
        baseline: side(1000, 10),
      },
      10,
      0.1,
    );
    expect(lose.verdict).toBe('LOSE');
    expect(lose.reason).toMatch(/candidate force-merge refused/);
    const differ = diskRowResult({ candidate: side(500, 9), baseline: side(1000, 10) }, 10, 0.1);
    expect(differ.verdict).toBe('N/A');
    expect(differ.ratio).toBeUndefined();
    expect(differ.reason).toMatch(/_count before measuring: 9 vs 10/);
  });

  it('multi-client ingest: docs/s ratio, N/A on a short count', () => {
    const cell = (docsPerSec: number, count: number) => ({
      supported: true,
      docsPerSec,
      count,
      elapsedMs: 1,
      failedBulks: 0,
    });
    const row = ingestCellRowResult(
      { candidate: cell(3000, 100), baseline: cell(1000, 100) },
      8,
      100,
      1,
      100,
      0.1,
    );
    expect(row).toMatchObject({ id: 'ingest.8-clients', ratio: 3, verdict: 'WIN', unit: 'docs/s' });
    const short = ingestCellRowResult(
      { candidate: cell(3000, 99), baseline: cell(1000, 100) },
      8,
      100,
      1,
      100,
      0.1,
    );
    expect(short.verdict).toBe('N/A');
  });
});

describe('methodology for single-measurement rows', () => {
  it('states the margin when the card has one, and guesses nothing when it does not', async () => {
    const { renderMarkdown } = await import('../src/scorecard/markdown.js');
    const { sampleCard } = await import('./helpers/card.js');
    const card = sampleCard();
    expect(renderMarkdown(card)).not.toContain('More ingest and disk');
    card.manifest.settings.singleMeasurementMargin = 0.1;
    expect(renderMarkdown(card)).toMatch(/no interval: WIN \/ LOSE only beyond a 10% margin/);
  });
});
