import { describe, expect, it } from 'vitest';
import { comparable } from '../src/gate/comparable.js';
import { sampleCard } from './helpers/card.js';

describe('comparable runs', () => {
  it('the same corpus, size, families and baseline product are comparable', () => {
    expect(comparable(sampleCard('a'), sampleCard('b'))).toBe(true);
  });

  it('a run against Elasticsearch is not compared with a run against OpenSearch', () => {
    const elastic = sampleCard('b');
    elastic.manifest.baseline = {
      ...elastic.manifest.baseline,
      product: 'Elasticsearch 8.13.4',
      version: '8.13.4',
    };
    expect(comparable(sampleCard('a'), elastic)).toBe(false);
  });

  it('a different corpus size is not comparable', () => {
    const bigger = sampleCard('b');
    bigger.manifest.corpus = { ...bigger.manifest.corpus, docs: 100_000 };
    expect(comparable(sampleCard('a'), bigger)).toBe(false);
  });

  it('a run with rows a flag adds (kNN, more ingest clients, no sweeps) is another row set', () => {
    const withKnn = sampleCard('b');
    withKnn.manifest.settings = { ...withKnn.manifest.settings, knn: true, knnDocs: 50_000 };
    expect(comparable(sampleCard('a'), withKnn)).toBe(false);
    const clients = sampleCard('b');
    clients.manifest.settings = { ...clients.manifest.settings, clients: '1,8' };
    expect(comparable(sampleCard('a'), clients)).toBe(false);
    const noSweep = sampleCard('b');
    noSweep.manifest.settings = { ...noSweep.manifest.settings, sweep: false };
    expect(comparable(sampleCard('a'), noSweep)).toBe(false);
    // The defaults spelled out are the default row set.
    const spelled = sampleCard('b');
    spelled.manifest.settings = { ...spelled.manifest.settings, knn: false, clients: '1', sweep: true };
    expect(comparable(sampleCard('a'), spelled)).toBe(true);
  });
});
