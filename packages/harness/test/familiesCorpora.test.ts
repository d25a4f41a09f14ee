import { describe, expect, it } from 'vitest';
import { loadMail } from '../src/corpus/mail.js';
import { loadPlaces } from '../src/corpus/places.js';
import { compareSignals } from '../src/families/compare.js';
import { BUSY_AIRPORTS, FLIGHTS_FAMILIES } from '../src/families/corpora/flights.js';
import { MAIL_FAMILIES, MAIL_SAMPLE_DOCS, pickMailPhrase } from '../src/families/corpora/mail.js';
import { PLACES_FAMILIES, PLACES_SAMPLE_DOCS } from '../src/families/corpora/places.js';
import { PLACES_GEO_FAMILIES } from '../src/families/corpora/places-geo.js';
import type { Family } from '../src/families/types.js';
import { Rng } from '../src/rng.js';

/** The rows of the real corpora: values drawn from the corpus, deterministic signals. */

const find = (rows: readonly Family[], id: string) => {
  const f = rows.find((x) => x.id === id);
  if (!f) throw new Error(`no family ${id}`);
  return f;
};
// biome-ignore lint/suspicious/noExplicitAny: request bodies are loose JSON
const draw = (f: Family, seed = 1) => f.request(new Rng(seed)) as Record<string, any>;
const search = (hits: unknown[] = [], total = 10, aggregations?: unknown) => ({
  hits: { total: { value: total, relation: 'eq' }, hits },
  aggregations,
});
const same = (f: Family, c: unknown, b: unknown) => compareSignals(f.signal(c), f.signal(b));
const ALL = [...PLACES_FAMILIES, ...PLACES_GEO_FAMILIES, ...MAIL_FAMILIES, ...FLIGHTS_FAMILIES];

describe('rows of the real corpora', () => {
  it('are deterministic per seed and named for their corpus', () => {
    for (const f of ALL) {
      expect(JSON.stringify(draw(f, 7)), f.id).toBe(JSON.stringify(draw(f, 7)));
      expect(f.endpoint).toBe('_search');
    }
    for (const [rows, prefix] of [
      [PLACES_FAMILIES, 'places.'],
      [PLACES_GEO_FAMILIES, 'geo.'],
      [MAIL_FAMILIES, 'mail.'],
      [FLIGHTS_FAMILIES, 'flights.'],
    ] as const)
      for (const f of rows) expect(f.id.startsWith(prefix), f.id).toBe(true);
  });

  it('places: names, countries and points come from cities in the sample the index holds', () => {
    const sample = loadPlaces().slice(0, PLACES_SAMPLE_DOCS);
    const names = new Set(sample.map((p) => p.name));
    const countries = new Set(sample.map((p) => p.country));
    const lats = new Set(sample.map((p) => p.latitude));
    for (let seed = 0; seed < 20; seed++) {
      expect(names.has(draw(find(PLACES_FAMILIES, 'places.term_name'), seed).query.term['name.raw'])).toBe(
        true,
      );
      const prefix = draw(find(PLACES_FAMILIES, 'places.prefix_name'), seed).query.prefix['name.raw'];
      expect([...names].some((n) => n.startsWith(prefix))).toBe(true);
      const country = draw(find(PLACES_FAMILIES, 'places.sort_population'), seed).query.bool.filter[0].term
        .country;
      expect(countries.has(country)).toBe(true);
      const point = draw(find(PLACES_GEO_FAMILIES, 'geo.distance'), seed).query.bool.filter[0].geo_distance
        .location;
      expect(lats.has(point.lat)).toBe(true);
    }
  });

  it('places: sorts by population break ties on geonameid, so ids and values are compared', () => {
    const f = find(PLACES_FAMILIES, 'places.sort_population');
    expect(draw(f).sort).toEqual([{ population: { order: 'desc' } }, { geonameid: { order: 'asc' } }]);
    const page = (...hits: [string, number][]) =>
      search(hits.map(([_id, population]) => ({ _id, _source: { population } })));
    expect(same(f, page(['1', 500], ['2', 500]), page(['1', 500], ['2', 500]))).toBeUndefined();
    expect(same(f, page(['2', 500], ['1', 500]), page(['1', 500], ['2', 500]))).toMatch(/hit ids/);
  });

  it('geo: box edges sit off the coordinate grid; grid cells and keyed rings are compared as buckets', () => {
    for (let seed = 0; seed < 10; seed++) {
      const box = draw(find(PLACES_GEO_FAMILIES, 'geo.bounding_box'), seed).query.bool.filter[0]
        .geo_bounding_box.location;
      for (const v of [box.top_left.lat, box.top_left.lon, box.bottom_right.lat, box.bottom_right.lon]) {
        if (Math.abs(v) === 90 || Math.abs(v) === 180) continue;
        expect(Math.abs(v * 1e5 - Math.round(v * 1e5))).toBeGreaterThan(0.1);
      }
    }
    const grid = find(PLACES_GEO_FAMILIES, 'geo.geohash_grid');
    const cells = (...b: [string, number][]) =>
      search([], 10, { cells: { buckets: b.map(([key, doc_count]) => ({ key, doc_count })) } });
    expect(same(grid, cells(['u0', 3], ['u1', 2]), cells(['u1', 2], ['u0', 3]))).toBeUndefined();
    expect(same(grid, cells(['u0', 3]), cells(['u0', 4]))).toMatch(/cells\[u0\]\.doc_count: 3 vs 4/);
    const rings = find(PLACES_GEO_FAMILIES, 'geo.distance_agg');
    expect(draw(rings).aggs.rings.geo_distance.ranges.map((r: { key: string }) => r.key)).toEqual([
      'near',
      'region',
      'far',
      'beyond',
    ]);
  });

  it('mail: words and phrases occur as written in messages the index holds', () => {
    const sample = loadMail().slice(0, MAIL_SAMPLE_DOCS);
    const bodies = sample.map((m) => ` ${m.body.toLowerCase().split(/\s+/).join(' ')} `);
    for (let seed = 0; seed < 15; seed++) {
      const phrase = pickMailPhrase(new Rng(seed));
      expect(phrase).toMatch(/^[a-z]+( [a-z]+){1,2}$/);
      expect(bodies.some((b) => b.includes(` ${phrase} `))).toBe(true);
      const word = draw(find(MAIL_FAMILIES, 'mail.match'), seed).query.match.body;
      expect(bodies.some((b) => b.includes(word))).toBe(true);
    }
  });

  it('mail: highlight compares each hit’s subject and body fragments in uid order', () => {
    const f = find(MAIL_FAMILIES, 'mail.highlight');
    expect(draw(f).sort).toEqual([{ uid: { order: 'asc' } }]);
    const hit = (body: string) =>
      search([{ _id: 'm1', highlight: { subject: ['<em>x</em>'], body: [body] } }], 1);
    expect(f.signal(hit('a <em>x</em>')).lists).toEqual({
      subject: ['m1: <em>x</em>'],
      body: ['m1: a <em>x</em>'],
    });
    expect(same(f, hit('a <em>x</em> b'), hit('a <em>x</em>'))).toMatch(/^body:/);
  });

  it('flights: airports are the busiest origins and dates fall in January-June 2001', () => {
    for (let seed = 0; seed < 20; seed++) {
      const dest = draw(find(FLIGHTS_FAMILIES, 'flights.terms_destination'), seed);
      expect(BUSY_AIRPORTS).toContain(dest.query.bool.filter[0].term.origin);
      const window = draw(find(FLIGHTS_FAMILIES, 'flights.terms_origin'), seed).query.range.date;
      expect(window.gte >= '2001-01-01T00:00:00.000Z' && window.lt <= '2001-07-01T00:00:00.000Z').toBe(true);
    }
  });

  it('flights: percentiles carry the t-digest tolerance; sorts on tying delays compare values', () => {
    const p = find(FLIGHTS_FAMILIES, 'flights.percentiles_delay');
    const pct = (p90: number) =>
      search([], 100, { late: { values: { '90.0': p90, '95.0': 80, '99.0': 200 } } });
    expect(same(p, pct(41), pct(40))).toBeUndefined();
    expect(same(p, pct(50), pct(40))).toMatch(/late\.p90/);
    const s = find(FLIGHTS_FAMILIES, 'flights.sort_delay');
    const page = (...d: [string, number][]) => search(d.map(([_id, delay]) => ({ _id, _source: { delay } })));
    expect(same(s, page(['a', 90], ['b', 90]), page(['b', 90], ['a', 90]))).toBeUndefined();
    expect(same(s, page(['a', 90], ['b', 80]), page(['a', 90], ['b', 85]))).toMatch(/sorted values/);
  });
});
