/** The index both engines receive, in one place: the corpus generator and families agree on it. */
export const INDEX_NAME = 'llm-telemetry';

export const INDEX_BODY = {
  // The shard request cache off: `_count` takes no `request_cache=false` parameter, and with the
  // cache on the baseline answered repeated `_count` bodies from it (its p50 fell below its own
  // match_none's). The candidate has no such cache.
  settings: { index: { number_of_shards: 1, number_of_replicas: 0, requests: { cache: { enable: false } } } },
  mappings: {
    properties: {
      '@timestamp': { type: 'date' },
      model: { type: 'keyword' },
      provider: { type: 'keyword' },
      tenant: { type: 'keyword' },
      status: { type: 'keyword' },
      latency_ms: { type: 'long' },
      cost_usd: { type: 'double' },
      prompt_tokens: { type: 'integer' },
      completion_tokens: { type: 'integer' },
      cache_hit: { type: 'boolean' },
      region: { type: 'keyword' },
      message: { type: 'text' },
    },
  },
} as const;

export interface TelemetryEvent {
  '@timestamp': string;
  model: string;
  provider: string;
  tenant: string;
  status: string;
  latency_ms: number;
  cost_usd: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_hit: boolean;
  region: string;
  message: string;
}
