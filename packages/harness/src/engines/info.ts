import { Pool } from 'undici';

export interface RootInfo {
  product: string;
  version: string;
  /** `name` from GET / (e.g. "everycell"), and the search library it reports, if any. */
  name: string;
  library?: string;
}

const PRODUCT_NAMES: Record<string, string> = { opensearch: 'OpenSearch', elasticsearch: 'Elasticsearch' };

/**
 * GET / on an ES-compatible server: product and version from `version.distribution` and
 * `version.number` (OpenSearch sets distribution; Elasticsearch does not).
 */
export async function fetchRootInfo(url: string, timeoutMs = 5000): Promise<RootInfo> {
  const pool = new Pool(url, { connections: 1, connectTimeout: timeoutMs });
  try {
    const res = await pool.request({
      method: 'GET',
      path: '/',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200)
      throw new Error(`GET ${url}/ returned HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as {
      name?: string;
      version?: { number?: string; distribution?: string; lucene_version?: string; build_flavor?: string };
    };
    const version = body.version?.number ?? 'unknown';
    const name = body.name ?? 'unknown';
    const library = body.version?.lucene_version;
    // Real Elasticsearch has no `distribution`, but runs on Lucene (a dotted version number) and
    // names its build flavor; its `name` is the node's name, not the product.
    const isElasticsearch = body.version?.build_flavor !== undefined && /^\d+\.\d+\.\d+$/.test(library ?? '');
    const distribution = body.version?.distribution ?? (isElasticsearch ? 'elasticsearch' : undefined);
    // OpenSearch names itself in `distribution`; an ES-compatible engine reports the ES API
    // version it speaks in `number`, so its product names the library instead.
    const product = distribution
      ? `${PRODUCT_NAMES[distribution] ?? distribution} ${version}`
      : `${name} (${library ?? 'unknown library'}, ES API ${version})`;
    const info: RootInfo = { product, version, name };
    if (library) info.library = library;
    return info;
  } finally {
    await pool.close();
  }
}
