import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { prepareBulk } from '../src/corpus/bulk.js';
import { generateCorpus } from '../src/corpus/generate.js';
import { INDEX_BODY } from '../src/corpus/mapping.js';
import { CORPUS_END_MS, CORPUS_START_MS } from '../src/corpus/timeline.js';
import { MODELS, TENANTS } from '../src/corpus/vocabulary.js';

const docs = (seed: number, n: number) => [...generateCorpus(seed, n)];

describe('corpus', () => {
  it('is deterministic: same seed, same hash; other seed, other hash; batching does not matter', () => {
    const a = prepareBulk(generateCorpus(42, 3000), 1000);
    const b = prepareBulk(generateCorpus(42, 3000), 700);
    const c = prepareBulk(generateCorpus(43, 3000), 1000);
    expect(a.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.contentHash).toBe(a.contentHash);
    expect(c.contentHash).not.toBe(a.contentHash);
    expect(a.batches.map((x) => x.docs)).toEqual([1000, 1000, 1000]);
    expect(b.batches.at(-1)?.docs).toBe(3000 - 4 * 700);
  });

  it('keeps bulk bodies as UTF-8 bytes off the V8 heap, hashing the same NDJSON text', () => {
    const a = prepareBulk(generateCorpus(42, 1500), 1000);
    const first = a.batches[0]?.body as Buffer;
    expect(Buffer.isBuffer(first)).toBe(true);
    const lines = first.toString('utf8').split('\n');
    // Action line, source line, per document; the body ends with a newline.
    expect(lines).toHaveLength(2 * 1000 + 1);
    expect(JSON.parse(lines[0] as string)).toEqual({ index: { _id: expect.any(String) } });
    const text = a.batches.map((x) => x.body.toString('utf8')).join('');
    expect(a.contentHash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('has unique, increasing timestamps inside the fixed window and explicit ids', () => {
    const d = docs(1, 20_000);
    let prev = 0;
    for (const doc of d) {
      const ms = Date.parse(doc.source['@timestamp']);
      expect(ms).toBeGreaterThan(prev);
      prev = ms;
    }
    expect(Date.parse(d[0]?.source['@timestamp'] ?? '')).toBeGreaterThanOrEqual(CORPUS_START_MS);
    expect(prev).toBeLessThan(CORPUS_END_MS);
    expect(new Set(d.map((x) => x.id)).size).toBe(d.length);
  });

  it('has realistic skew: a few models dominate, many tenants, mostly ok, heavy-tailed latency', () => {
    const d = docs(7, 20_000);
    const byModel = new Map<string, number>();
    for (const x of d) byModel.set(x.source.model, (byModel.get(x.source.model) ?? 0) + 1);
    const counts = [...byModel.values()].sort((a, b) => b - a);
    expect(byModel.size).toBe(MODELS.length);
    expect(counts.slice(0, 3).reduce((a, b) => a + b, 0) / d.length).toBeGreaterThan(0.5);
    expect(new Set(d.map((x) => x.source.tenant)).size).toBeGreaterThan(TENANTS.length * 0.8);
    const ok = d.filter((x) => x.source.status === 'ok').length / d.length;
    expect(ok).toBeGreaterThan(0.9);
    expect(ok).toBeLessThan(0.96);
    const lat = d.map((x) => x.source.latency_ms).sort((a, b) => a - b);
    const p50 = lat[Math.floor(lat.length / 2)] as number;
    const p99 = lat[Math.floor(lat.length * 0.99)] as number;
    expect(p99 / p50).toBeGreaterThan(5);
  });

  it('produces documents that fit the mapping', () => {
    const fields = Object.keys(INDEX_BODY.mappings.properties).sort();
    for (const doc of docs(3, 200)) {
      expect(Object.keys(doc.source).sort()).toEqual(fields);
      expect(Number.isInteger(doc.source.latency_ms)).toBe(true);
      expect(Number.isInteger(doc.source.prompt_tokens)).toBe(true);
      expect(typeof doc.source.cache_hit).toBe('boolean');
      expect(doc.source.message).toMatch(/^[a-z ]+$/);
    }
  });
});
