/**
 * Which searches leave the event loop for the thread pool: the heavy kinds must (or two of them
 * cannot use both cores), the plain ones must not (the hop costs each one ~50 us).
 */
import { describe, expect, it } from 'vitest';
import { searchRunsAsync } from '../ts/engine.js';

const runsAsync = (body: unknown) => searchRunsAsync(Buffer.from(JSON.stringify(body)));

describe('search dispatch', () => {
  it('sends aggregations, sorts and multi-term queries to the thread pool', () => {
    expect(runsAsync({ size: 0, aggs: { t: { terms: { field: 'model' } } } })).toBe(true);
    expect(runsAsync({ query: { term: { model: 'x' } }, sort: [{ '@timestamp': 'desc' }] })).toBe(true);
    expect(runsAsync({ query: { prefix: { model: 'gpt' } } })).toBe(true);
    expect(runsAsync({ query: { bool: { must: [{ regexp: { model: 'g.*' } }] } } })).toBe(true);
    expect(runsAsync({ query: { simple_query_string: { query: 'a -b' } } })).toBe(true);
    expect(runsAsync({ query: { match_phrase_prefix: { message: 'time ou' } } })).toBe(true);
  });

  it('keeps plain term, match and bool searches inline', () => {
    expect(runsAsync({ query: { term: { model: 'x' } }, size: 10 })).toBe(false);
    expect(runsAsync({ query: { match: { message: 'timeout' } } })).toBe(false);
    expect(
      runsAsync({ query: { bool: { filter: [{ term: { tenant: 't' } }, { range: { n: { gte: 1 } } }] } } }),
    ).toBe(false);
    // A value that merely contains a marker word is not a key.
    expect(runsAsync({ query: { term: { model: 'sort' } } })).toBe(false);
  });
});
