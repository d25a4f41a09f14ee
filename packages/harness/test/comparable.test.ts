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
});
