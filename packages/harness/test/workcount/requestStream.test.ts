import { describe, expect, it } from 'vitest';
import { INDEX_NAME } from '../../src/corpus/mapping.js';
import { ALL_FAMILIES, selectFamilies } from '../../src/families/index.js';
import { requestStream, toNdjson } from '../../src/workcount/requestStream.js';

describe('the count check request stream', () => {
  const sizes = { warmup: 3, timed: 5 };

  it('is the same bytes for the same seed, and other bytes for another seed', () => {
    const a = toNdjson(requestStream(ALL_FAMILIES, INDEX_NAME, 42, sizes));
    const b = toNdjson(requestStream(ALL_FAMILIES, INDEX_NAME, 42, sizes));
    const c = toNdjson(requestStream(ALL_FAMILIES, INDEX_NAME, 43, sizes));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(a.split('\n').filter(Boolean)).toHaveLength(ALL_FAMILIES.length * (sizes.warmup + sizes.timed));
  });

  it("writes each row's warm-up then timed requests together, in row order", () => {
    const requests = requestStream(ALL_FAMILIES, INDEX_NAME, 42, sizes);
    const rows = requests.map((r) => r.row).filter((row, i, all) => all[i - 1] !== row);
    expect(rows).toEqual(ALL_FAMILIES.map((f) => f.id));
    const first = requests.filter((r) => r.row === ALL_FAMILIES[0]?.id).map((r) => r.phase);
    expect(first).toEqual(['warmup', 'warmup', 'warmup', 'timed', 'timed', 'timed', 'timed', 'timed']);
  });

  it('hands the engine what the service would: index, endpoint, URL parameters as JSON, the wire body', () => {
    const [term] = requestStream(selectFamilies('query.term'), INDEX_NAME, 42, { warmup: 0, timed: 1 });
    expect(term).toMatchObject({
      row: 'query.term',
      endpoint: '_search',
      index: INDEX_NAME,
      params: '{"request_cache":"false"}',
    });
    expect(JSON.parse(term?.body ?? '{}')).toMatchObject({ track_total_hits: true });
    const [count] = requestStream(selectFamilies('query.count'), INDEX_NAME, 42, { warmup: 0, timed: 1 });
    expect(count).toMatchObject({ endpoint: '_count', params: '' });
    const [msearch] = requestStream(selectFamilies('feature.msearch'), INDEX_NAME, 42, {
      warmup: 0,
      timed: 1,
    });
    expect(msearch?.endpoint).toBe('_msearch');
    expect(msearch?.body.endsWith('\n')).toBe(true);
  });

  it('counts the first requests of the bench stream, so more timed requests extend the same stream', () => {
    const five = requestStream(selectFamilies('query.match'), INDEX_NAME, 42, { warmup: 0, timed: 5 });
    const ten = requestStream(selectFamilies('query.match'), INDEX_NAME, 42, { warmup: 0, timed: 10 });
    expect(ten.slice(0, 5)).toEqual(five);
  });
});
