import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCalibration } from '../lib/calibration';
import type { Manifest } from '../lib/definitions';
import { benchmarkRules } from '../lib/methodology';
import { loadFixtures } from './load-fixtures';

describe('the calibration on the methodology page', () => {
  it("reads the repository's newest committed calibration", () => {
    const c = getCalibration(resolve(__dirname, '../../../scorecards/calibration'));
    expect(c?.file).toMatch(/^scorecards\/calibration\/\d{4}-\d{2}-\d{2}.*\.json$/);
    expect(Object.keys(c?.aa ?? {})).toContain('candidate');
    expect(c?.power?.cpu.eligible).toBeGreaterThan(0);
  });

  it('is absent without a folder, and names the field of a file that is not a calibration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'everycell-calibration-'));
    expect(getCalibration(join(dir, 'missing'))).toBeUndefined();
    mkdirSync(join(dir, 'cal'));
    writeFileSync(
      join(dir, 'cal', '2026-01-01.json'),
      JSON.stringify({ createdAt: 'x', complete: true, aa: { candidate: { runs: -1 } } }),
    );
    expect(() => getCalibration(join(dir, 'cal'))).toThrow(/field aa\.candidate\.runs/);
  });
});

describe('the rules of a run measured in forks', () => {
  it('describe forks, the t interval and CPU per request, not the bootstrap of older runs', () => {
    const manifest = structuredClone(loadFixtures().at(-1)?.manifest) as Manifest;
    manifest.settings = { ...manifest.settings, confidence: 0.99, maxForks: 7, prewarm: 200 };
    manifest.design = { forks: 5, roundsPerFork: 2, requestsPerRound: 60, basis: 'defaults' };
    const rules = benchmarkRules(manifest);
    const text = rules.map((r) => r.text).join(' ');
    expect(rules.map((r) => r.title)).toContain('Forks, rounds and order');
    expect(rules.map((r) => r.title)).toContain('Same answers, or no verdict');
    expect(text).toContain('5 forks');
    expect(text).toContain('up to 7');
    expect(text).toContain('The 99% interval is a t interval');
    expect(text).toContain('CPU per request');
    expect(text).not.toContain('bootstrap');
    expect(text).toContain((1 + Number(manifest.settings.tieMargin)).toFixed(3));
  });
});
