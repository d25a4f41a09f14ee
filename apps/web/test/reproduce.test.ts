import { reproduceCommand } from '@everycell/harness/flags';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../lib/definitions';
import { benchmarkRules } from '../lib/methodology';
import { hiddenSettings, publishedSettings } from '../lib/publish';
import { loadFixtures } from './load-fixtures';

const byDate = loadFixtures().sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const manifest = byDate.at(-1)?.manifest as Manifest;
const old = byDate[0]?.manifest as Manifest;

describe('the reproduce command (the harness flag table, shared with the CLI)', () => {
  it('passes every recorded setting that has a flag, so it recreates the run', () => {
    const { lines } = reproduceCommand({ ...manifest, settings: publishedSettings(manifest.settings) });
    expect(lines[0]).toBe(`git checkout ${manifest.gitRevision}`);
    expect(lines[1]).toContain('--docs 200000');
    expect(lines[1]).toContain(`--rate ${manifest.settings.rate}`);
    expect(lines[1]).toContain(`--margin ${manifest.settings.tieMargin}`);
    // The settings the old copied table dropped: client counts and the sweep bound.
    expect(lines[1]).toContain('--clients 1,2,4,8');
    expect(lines[1]).toContain('--sweep-p99-ms 50');
  });

  it('never publishes a path of the build machine', () => {
    expect(old.settings.engineLogs).toMatch(/^\//);
    expect(hiddenSettings(old.settings)).toEqual(['engineLogs']);
    const { lines } = reproduceCommand({ ...old, settings: publishedSettings(old.settings) });
    expect(lines.join('\n')).not.toContain('/home/');
  });
});

describe('benchmarkRules', () => {
  it('fills in the run’s own numbers', () => {
    const text = benchmarkRules(manifest)
      .map((rule) => rule.text)
      .join(' ');
    expect(text).toContain('200 requests/s');
    expect(text).toContain((1 + Number(manifest.settings.tieMargin)).toFixed(3));
  });
});

describe('the reproduce command as shown', () => {
  it('puts one flag per line with shell continuations, the words unchanged', async () => {
    const { oneFlagPerLine } = await import('../components/reproduce');
    const line = "npm install && npm run bench -- --docs 1000000 --knn --families '*'";
    const shown = oneFlagPerLine(line);
    expect(shown).toBe(
      "npm install && npm run bench -- \\\n    --docs 1000000 \\\n    --knn \\\n    --families '*'",
    );
    expect(shown.replaceAll(' \\\n    ', ' ')).toBe(line);
  });
});
