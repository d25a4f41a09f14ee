import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationFor } from '../lib/calibration';
import { getCalibration, getCalibrations } from '../lib/data';
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
      JSON.stringify({
        createdAt: 'x',
        complete: true,
        settings: { docs: 1 },
        aa: { candidate: { runs: -1 } },
      }),
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
    // Forks, not the bootstrap of older runs, for latency; the two bootstrap rows say their fixed 95%.
    expect(text).not.toContain('bootstrap resamples');
    expect(text).toContain('bootstraps at a fixed 95%');
    expect(rules.map((r) => r.title)).toContain('Which quantile decides');
    expect(text).toContain((1 + Number(manifest.settings.tieMargin)).toFixed(3));
  });
});

describe('a calibration beside the run it qualifies', () => {
  it('is marked stale when it is older, smaller or incomplete, with each reason', () => {
    const fixtures = resolve(__dirname, 'fixtures/calibration');
    const calibrations = getCalibrations(fixtures);
    expect(calibrations).toHaveLength(1);
    const newest = loadFixtures()
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .at(-1);
    if (!newest) throw new Error('no fixtures');
    const fit = calibrationFor(calibrations, newest);
    expect(fit?.stale).toEqual([
      'older than this run: 19 Nov 2026 against 21 Nov 2026 (engine 3f9c2ab against c4a7b19)',
      'smaller than this run: 20,000 documents against 200,000',
      'incomplete: stopped before all 2 planned A/A runs per engine finished',
    ]);
    // A calibration of the run's own engine, at its scale, made before it, fits it.
    const fitting = { ...calibrations[0], complete: true, settings: { docs: 200_000, corpus: 'logs-zipf' } };
    const same = { ...newest, manifest: { ...newest.manifest, gitRevision: '3f9c2ab0000' } };
    expect(calibrationFor([fitting as (typeof calibrations)[number]], same)?.stale).toEqual([]);
  });
});
