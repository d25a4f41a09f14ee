/** `filter_path` as ES applies it to any response: includes, then excludes, `**` at any depth. */
import { describe, expect, it } from 'vitest';
import { applyFilterPath } from '../ts/filter-path.js';

const hits = {
  took: 3,
  hits: { hits: [{ _source: { name: 'a', properties: { size: 1, meta: { foo: 'bar' } } } }] },
};

describe('applyFilterPath', () => {
  it('excludes a path found at any depth', () => {
    const out = JSON.parse(applyFilterPath(JSON.stringify(hits), '-**._source.properties,**._source'));
    expect(out).toEqual({ hits: { hits: [{ _source: { name: 'a' } }] } });
  });

  it('excludes below an include', () => {
    const out = JSON.parse(
      applyFilterPath(JSON.stringify(hits), '**.properties,-hits.hits._source.properties.meta'),
    );
    expect(out).toEqual({ hits: { hits: [{ _source: { properties: { size: 1 } } }] } });
  });
});
