import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPORA } from '../../src/corpus/corpora.js';
import { countedWorkOf } from '../../src/gate/countCheck.js';
import { REPO_ROOT } from '../../src/repo.js';
import type { Manifest } from '../../src/scorecard/schema.js';

/** The count check replays what a run measured: its manifest must resolve to a corpus and rows. */

const cardsDir = join(REPO_ROOT, 'scorecards');
const manifests = readdirSync(cardsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^\d{8}T/.test(d.name))
  .map((d) => {
    const card = JSON.parse(readFileSync(join(cardsDir, d.name, 'scorecard.json'), 'utf8'));
    return { run: d.name, manifest: card.manifest as Manifest };
  });

describe('the count check reads a run by its manifest', () => {
  it('resolves every committed card to the corpus, size, seed and rows it measured', () => {
    expect(manifests.length).toBeGreaterThan(0);
    for (const { run, manifest } of manifests) {
      const work = countedWorkOf(manifest);
      expect(work.corpus.name, run).toBe(manifest.corpus.name);
      expect(work.docs, run).toBe(manifest.corpus.docs);
      expect(work.seed, run).toBe(manifest.corpus.seed);
      expect(work.families.length, run).toBeGreaterThan(0);
      // A card whose settings name the --corpus id names the same corpus the manifest does.
      if (typeof manifest.settings.corpus === 'string')
        expect(work.corpus.id, run).toBe(manifest.settings.corpus);
    }
  });

  it('names every corpus the harness generates by a name of its own', () => {
    for (const spec of CORPORA) {
      const work = countedWorkOf({
        corpus: { name: spec.name, docs: 10, seed: 1, contentHash: '' },
        settings: {},
      });
      expect(work.corpus.id).toBe(spec.id);
    }
  });

  it('refuses a corpus it does not generate, listing the ones it does', () => {
    expect(() =>
      countedWorkOf({ corpus: { name: 'nope-v9', docs: 10, seed: 1, contentHash: '' }, settings: {} }),
    ).toThrow(/nope-v9 is not one this harness generates: llm-telemetry-v1/);
  });
});
