import type { Scorecard } from '../scorecard/schema.js';

/**
 * Same corpus, same size, same row selection, same baseline product: only then is a missing row or
 * extra N/A a coverage loss (an Elasticsearch run and an OpenSearch run are different comparisons).
 */
export function comparable(a: Scorecard, b: Scorecard): boolean {
  const ca = a.manifest.corpus;
  const cb = b.manifest.corpus;
  return (
    a.manifest.baseline.product === b.manifest.baseline.product &&
    ca.name === cb.name &&
    ca.docs === cb.docs &&
    String(a.manifest.settings?.families ?? '*') === String(b.manifest.settings?.families ?? '*')
  );
}
