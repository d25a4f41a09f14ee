import { ZipfPicker } from './zipf.js';

/**
 * The value lists the corpus draws from and the families draw query parameters from, so every
 * query asks for values that exist, with the same skew as the data.
 */

/** Ordered by popularity: the first few dominate under the Zipf picker. */
export const MODELS: readonly {
  name: string;
  provider: string;
  inPerMTok: number;
  outPerMTok: number;
  medianMs: number;
}[] = [
  { name: 'gpt-4o-mini', provider: 'openai', inPerMTok: 0.15, outPerMTok: 0.6, medianMs: 650 },
  { name: 'claude-3-5-haiku', provider: 'anthropic', inPerMTok: 0.8, outPerMTok: 4, medianMs: 700 },
  { name: 'gpt-4o', provider: 'openai', inPerMTok: 2.5, outPerMTok: 10, medianMs: 1200 },
  { name: 'claude-3-5-sonnet', provider: 'anthropic', inPerMTok: 3, outPerMTok: 15, medianMs: 1500 },
  { name: 'gemini-1.5-flash', provider: 'google', inPerMTok: 0.075, outPerMTok: 0.3, medianMs: 550 },
  { name: 'llama-3.1-8b-instruct', provider: 'meta', inPerMTok: 0.05, outPerMTok: 0.08, medianMs: 400 },
  { name: 'mistral-small', provider: 'mistral', inPerMTok: 0.2, outPerMTok: 0.6, medianMs: 600 },
  { name: 'gemini-1.5-pro', provider: 'google', inPerMTok: 1.25, outPerMTok: 5, medianMs: 1700 },
  { name: 'llama-3.1-70b-instruct', provider: 'meta', inPerMTok: 0.59, outPerMTok: 0.79, medianMs: 1100 },
  { name: 'o1-mini', provider: 'openai', inPerMTok: 3, outPerMTok: 12, medianMs: 4500 },
  { name: 'command-r', provider: 'cohere', inPerMTok: 0.15, outPerMTok: 0.6, medianMs: 800 },
  { name: 'mistral-large', provider: 'mistral', inPerMTok: 2, outPerMTok: 6, medianMs: 1400 },
  { name: 'claude-3-opus', provider: 'anthropic', inPerMTok: 15, outPerMTok: 75, medianMs: 3000 },
  { name: 'command-r-plus', provider: 'cohere', inPerMTok: 2.5, outPerMTok: 10, medianMs: 1600 },
  { name: 'o1', provider: 'openai', inPerMTok: 15, outPerMTok: 60, medianMs: 9000 },
  { name: 'qwen-2.5-72b', provider: 'alibaba', inPerMTok: 0.4, outPerMTok: 1.2, medianMs: 1300 },
  { name: 'deepseek-v3', provider: 'deepseek', inPerMTok: 0.27, outPerMTok: 1.1, medianMs: 1500 },
  { name: 'llama-3.1-405b-instruct', provider: 'meta', inPerMTok: 3, outPerMTok: 3, medianMs: 2500 },
  { name: 'phi-3.5-mini', provider: 'microsoft', inPerMTok: 0.1, outPerMTok: 0.1, medianMs: 350 },
  { name: 'jamba-1.5-large', provider: 'ai21', inPerMTok: 2, outPerMTok: 8, medianMs: 1800 },
];

export const PROVIDERS: readonly string[] = [...new Set(MODELS.map((m) => m.provider))];

export const TENANTS: readonly string[] = Array.from(
  { length: 500 },
  (_, i) => `tenant-${String(i + 1).padStart(4, '0')}`,
);

export const REGIONS: readonly string[] = [
  'us-east-1',
  'us-west-2',
  'eu-west-1',
  'eu-central-1',
  'ap-southeast-1',
  'ap-northeast-1',
  'sa-east-1',
  'ca-central-1',
];

/** Status with its share of traffic: errors are rare, as in production. */
export const STATUSES: readonly { name: string; share: number }[] = [
  { name: 'ok', share: 0.93 },
  { name: 'error', share: 0.035 },
  { name: 'timeout', share: 0.015 },
  { name: 'rate_limited', share: 0.02 },
];

/** Words of prompt summaries, most frequent first (Zipf ranks). Lower-case ASCII so every analyzer splits them alike. */
export const WORDS: readonly string[] = (
  'the summarize user request answer question code review document email translate english data ' +
  'report customer support ticket explain function python error query sql table list generate ' +
  'product description write article draft reply meeting notes classify sentiment extract entities ' +
  'invoice contract legal clause policy search results rank json schema convert format markdown ' +
  'chart sales forecast quarter revenue analysis compare options recommend plan travel itinerary ' +
  'recipe ingredients fix bug test unit refactor typescript rust java kotlin swift golang docker ' +
  'kubernetes deploy pipeline config yaml terraform aws bucket permission access token login ' +
  'password reset account billing refund order shipping address delivery status tracking weather ' +
  'news headline tweet post caption image prompt story poem song lyrics game character dialogue ' +
  'tutorial lesson quiz math equation proof physics chemistry biology history essay outline ' +
  'abstract paper citation reference medical symptom diagnosis insurance claim loan mortgage tax ' +
  'budget spreadsheet formula pivot dashboard metric alert incident postmortem outage latency ' +
  'cache memory cpu disk network firewall vpn dns certificate ssl regex parser compiler kernel ' +
  'driver firmware sensor robot drone satellite orbit telescope galaxy quantum neural transformer ' +
  'embedding vector index retrieval agent tool workflow scheduler cron backup restore migration ' +
  'upgrade rollback changelog release version license audit compliance gdpr privacy consent'
).split(' ');

/** Words that only error statuses use, so match queries on them are selective. */
export const ERROR_PHRASES: Readonly<Record<string, readonly string[]>> = {
  error: [
    'upstream returned internal error',
    'invalid request payload rejected',
    'content filter blocked response',
    'context length exceeded maximum',
  ],
  timeout: [
    'upstream timeout after retries',
    'gateway timeout waiting for stream',
    'connection reset before first token',
  ],
  rate_limited: [
    'rate limit exceeded for tenant',
    'quota exhausted retry later',
    'too many concurrent requests',
  ],
};

export const MODEL_PICKER = new ZipfPicker(MODELS, 1.2);
export const TENANT_PICKER = new ZipfPicker(TENANTS, 1.05);
export const REGION_PICKER = new ZipfPicker(REGIONS, 0.8);
export const WORD_PICKER = new ZipfPicker(WORDS, 1.07);
