/**
 * Both engines score with the same similarity, so a scored row can compare its top hits and
 * their scores, not only its totals (families/compare.ts).
 *
 * The name `BM25` means two scales: Elasticsearch 8 and OpenSearch 3 score Lucene 9's BM25,
 * while OpenSearch 1-2 and Elasticsearch 7 score the legacy one (every score k1 + 1 = 2.2 times
 * higher; same ranking of plain terms, a different one once a constant-score clause is mixed in).
 * OpenSearch 2.x refuses the name `LegacyBM25`, so the baseline's index stays as the corpus wrote
 * it; the candidate speaks Elasticsearch 8 and serves `LegacyBM25` as an index setting, so against
 * a legacy-scale baseline its index is created with that as the default similarity. The manifest
 * records what each engine was given.
 */

export type BmScale = 'BM25' | 'LegacyBM25';

const versionOf = (product: string, name: string): number | undefined => {
  const m = new RegExp(`^${name} (\\d+)\\.`).exec(product);
  return m ? Number(m[1]) : undefined;
};

/** The scale an engine's default `BM25` scores on, from its product line ("OpenSearch 2.19.1"). */
export function defaultScale(product: string): BmScale {
  const opensearch = versionOf(product, 'OpenSearch');
  if (opensearch !== undefined) return opensearch < 3 ? 'LegacyBM25' : 'BM25';
  const elasticsearch = versionOf(product, 'Elasticsearch');
  if (elasticsearch !== undefined) return elasticsearch < 8 ? 'LegacyBM25' : 'BM25';
  return 'BM25';
}

/** Whether the engine is this project's candidate (it accepts `LegacyBM25`; others may not). */
const isCandidateEngine = (product: string) => product.startsWith('everycell');

type Body = { settings?: Record<string, unknown>; [key: string]: unknown };

const namesSimilarity = (settings: Record<string, unknown> | undefined): boolean => {
  if (!settings) return false;
  const index = settings.index as Record<string, unknown> | undefined;
  return (
    (index !== undefined && 'similarity' in index) ||
    Object.keys(settings).some((k) => k.startsWith('index.similarity') || k === 'similarity')
  );
};

/**
 * The index body one engine receives so that it scores on the reference engine's scale: the
 * corpus's own body, plus `index.similarity.default: LegacyBM25` for a candidate engine measured
 * against a legacy-scale baseline. A body that names its own similarity is left as written.
 * Returns the note the manifest carries when the body was changed.
 */
export function alignedIndexBody(
  body: object,
  engineProduct: string,
  referenceProduct: string,
): { body: object; note?: string } {
  const reference = defaultScale(referenceProduct);
  const own = body as Body;
  if (
    reference === 'BM25' ||
    !isCandidateEngine(engineProduct) ||
    defaultScale(engineProduct) === reference ||
    namesSimilarity(own.settings)
  )
    return { body };
  const settings = own.settings ?? {};
  const index = (settings.index as Record<string, unknown> | undefined) ?? {};
  return {
    body: {
      ...own,
      settings: { ...settings, index: { ...index, similarity: { default: { type: 'LegacyBM25' } } } },
    },
    note: `index.similarity.default: LegacyBM25 (the scale ${referenceProduct} scores its default BM25 on)`,
  };
}
