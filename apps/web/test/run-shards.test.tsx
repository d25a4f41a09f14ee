import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RunFacts } from '../components/run-facts';
import type { Scorecard } from '../lib/definitions';
import { runModel } from '../lib/run-model';
import { runSets } from '../lib/sets';
import { loadFixtures } from './load-fixtures';

describe('a card merged from shards', () => {
  it('says on the run page which shards measured it, on which machines', () => {
    const [card] = loadFixtures().sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    if (!card) throw new Error('no fixtures');
    const merged = structuredClone(card) as Scorecard;
    merged.manifest.shards = [1, 2].map((index) => ({
      index,
      runId: `${card.runId}-s${index}`,
      createdAt: card.createdAt,
      durationMs: 60_000 * index,
      status: 'complete' as const,
      machine: { ...card.manifest.machine, cpuModel: `CPU ${index}` },
      node: card.manifest.node,
      rows: 10 * index,
    }));
    const [set] = runSets([merged]);
    if (!set) throw new Error('no set');
    const model = runModel(merged, { set, calibrations: [], downloads: [] });
    expect(model.shards?.map((s) => [s.index, s.rows, s.machine])).toEqual([
      [1, 10, `CPU 1, ${card.manifest.machine.cores} cores`],
      [2, 20, `CPU 2, ${card.manifest.machine.cores} cores`],
    ]);
    const html = renderToStaticMarkup(<RunFacts model={model} />);
    expect(html).toContain('merged from 2 shards');
    expect(html).toContain('2: 20 rows');
    const whole = runModel(card, { set, calibrations: [], downloads: [] });
    expect(whole.shards).toBeUndefined();
    expect(renderToStaticMarkup(<RunFacts model={whole} />)).not.toContain('data-fact="shards"');
  });
});
