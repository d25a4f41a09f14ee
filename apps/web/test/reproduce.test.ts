import { describe, expect, it } from 'vitest';
import type { Manifest } from '../lib/definitions';
import { benchmarkRules } from '../lib/methodology';
import { reproduceRun, shellQuote } from '../lib/reproduce';
import { loadFixtures } from './load-fixtures';

const manifest = loadFixtures()[0]?.manifest as Manifest;

describe('reproduceRun', () => {
  it('checks out the revision and passes every flag-settable setting', () => {
    const { lines, fixedSettings, caveats } = reproduceRun(manifest);
    expect(lines[0]).toBe(`git checkout ${manifest.gitRevision}`);
    expect(lines[1]).toMatch(/^npm install && npm run bench -- \\\n {4}--docs 200000 \\\n/);
    expect(lines[1]).toContain(`--rate ${manifest.settings.rate}`);
    expect(lines[1]).toContain(`--margin ${manifest.settings.tieMargin}`);
    expect(lines[1]).toContain('--timeout-ms 10000');
    expect(fixedSettings).toContain('bootstrapResamples');
    expect(fixedSettings).not.toContain('rate');
    expect(caveats).toEqual([]);
  });

  it('says what the command cannot reproduce', () => {
    const { lines, caveats } = reproduceRun({
      ...manifest,
      gitRevision: 'none',
      candidate: { ...manifest.candidate, startedByHarness: false },
      settings: { gitDirty: true, rate: 50 },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--rate 50');
    // docs and seed come from the corpus block when the settings lack them.
    expect(lines[0]).toContain(`--docs ${manifest.corpus.docs}`);
    expect(caveats.join('\n')).toMatch(/no commit/);
    expect(caveats.join('\n')).toMatch(/uncommitted changes/);
    expect(caveats.join('\n')).toMatch(/--candidate-url/);
    expect(caveats.join('\n')).toMatch(/--iterations/);
  });

  it('quotes shell metacharacters only', () => {
    expect(shellQuote('query.*,bucket.terms')).toBe(`'query.*,bucket.terms'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('0.05')).toBe('0.05');
  });
});

describe('benchmarkRules', () => {
  it('quotes the run’s own numbers', () => {
    const text = benchmarkRules(manifest)
      .map((rule) => rule.text)
      .join('\n');
    expect(text).toContain('1.050');
    expect(text).toContain('0.952');
    expect(text).toContain('200 requests/s');
    expect(text).toContain('blocks of 50');
  });

  it('still states the rules when the manifest lacks the numbers', () => {
    const text = benchmarkRules({ ...manifest, settings: {} })
      .map((rule) => rule.text)
      .join('\n');
    expect(text).toContain('1 + margin');
    expect(text).not.toContain('undefined');
    expect(text).not.toContain('NaN');
  });
});
