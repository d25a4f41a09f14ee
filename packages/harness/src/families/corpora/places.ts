import { loadPlaces, type Place } from '../../corpus/places.js';
import type { Rng } from '../../rng.js';
import { CARDINALITY_TOLERANCE } from '../aggs/metrics-approximate.js';
import { searchRow } from '../define.js';
import { namedBucketsOf } from '../signals/buckets.js';
import { bucketsOf, idsOf, metricOf, sourceValuesOf, totalOf } from '../signals/core.js';
import { totalAndScores } from '../signals/hits.js';
import { multiMetricOf } from '../signals/metrics.js';
import type { Family, Signal } from '../types.js';

/**
 * Rows on real places (`--corpus places`), in the manner of Rally's geonames track: exact and
 * prefix names, the largest cities by population, aggregations by country, population ranges.
 * Parameters come from cities among the first SAMPLE_DOCS of the corpus order, which any
 * --docs >= SAMPLE_DOCS indexes, so every drawn name and country exists in the index.
 * Sorts on population break ties on the unique geonameid, so the top ids are determined.
 */

export const PLACES_SAMPLE_DOCS = 10_000;

/** A city of the sample, weighted by nothing: real queries ask about small towns too. */
export function samplePlace(rng: Rng): Place {
  const all = loadPlaces();
  return all[rng.int(0, Math.min(PLACES_SAMPLE_DOCS, all.length) - 1)] as Place;
}

/** A country of the sample, as often as it has cities (most searches are in big countries). */
const sampleCountry = (rng: Rng): string => samplePlace(rng).country;

/** Largest first; ties (equal populations are common) broken on the unique GeoNames id. */
export const BY_POPULATION = [{ population: { order: 'desc' } }, { geonameid: { order: 'asc' } }];

export const totalIdsPopulation = (response: unknown): Signal => ({
  total: totalOf(response),
  ids: idsOf(response),
  sortValues: sourceValuesOf(response, 'population'),
});

/** Population bands from a village to a metropolis. */
const POPULATION_STEPS = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 500_000, 1_000_000];

export const PLACES_FAMILIES: readonly Family[] = [
  searchRow({
    id: 'places.term_name',
    group: 'query',
    family: 'term',
    title: 'term on name.raw: a real city name (many names recur: Springfield, San José)',
    request: (rng) => ({ query: { term: { 'name.raw': samplePlace(rng).name } }, size: 10 }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'places.match_name',
    group: 'query',
    family: 'match',
    title: 'match on name (text): a word of a real city name',
    request: (rng) => {
      for (;;) {
        const words = samplePlace(rng)
          .name.split(/\s+/)
          .filter((w) => /^\p{L}{3,}$/u.test(w));
        if (words.length > 0) return { query: { match: { name: rng.pick(words) } }, size: 10 };
      }
    },
    signal: totalAndScores,
  }),
  searchRow({
    id: 'places.prefix_name',
    group: 'query',
    family: 'prefix',
    title: 'prefix on name.raw (2-4 leading characters of a real name), largest 10 first',
    request: (rng) => {
      const name = samplePlace(rng).name;
      return {
        query: { prefix: { 'name.raw': name.slice(0, Math.min(name.length, rng.int(2, 4))) } },
        sort: BY_POPULATION,
        size: 10,
      };
    },
    signal: totalIdsPopulation,
  }),
  searchRow({
    id: 'places.sort_population',
    group: 'query',
    family: 'sort',
    title: "a country's 10 largest cities (sort population desc, geonameid)",
    request: (rng) => ({
      query: { bool: { filter: [{ term: { country: sampleCountry(rng) } }] } },
      sort: BY_POPULATION,
      size: 10,
    }),
    signal: totalIdsPopulation,
  }),
  searchRow({
    id: 'places.range_population',
    group: 'query',
    family: 'range',
    title: 'range on population (a band between 1,000 and 10 million)',
    request: (rng) => {
      const at = rng.int(0, POPULATION_STEPS.length - 2);
      const gte = POPULATION_STEPS[at] as number;
      return {
        query: {
          range: { population: { gte, lt: POPULATION_STEPS[rng.int(at + 1, POPULATION_STEPS.length - 1)] } },
        },
        size: 10,
      };
    },
    signal: totalAndScores,
  }),
  searchRow({
    id: 'places.range_latitude',
    group: 'query',
    family: 'range',
    title: 'range on latitude (a double): cities within 0.5-5 degrees of a real city, largest first',
    request: (rng) => {
      const p = samplePlace(rng);
      const half = rng.pick([0.5, 1, 2, 5]);
      // Bounds off the 1e-5 grid the coordinates are given on, so no city sits on one.
      return {
        query: { range: { latitude: { gte: p.latitude - half - 5e-6, lte: p.latitude + half + 5e-6 } } },
        sort: BY_POPULATION,
        size: 10,
      };
    },
    signal: totalIdsPopulation,
  }),
  searchRow({
    id: 'places.terms_country',
    group: 'bucket',
    family: 'terms',
    title: 'terms by country (every country) with summed population, cities of a population band',
    request: (rng) => ({
      size: 0,
      query: { range: { population: { gte: rng.pick(POPULATION_STEPS.slice(0, 6)) } } },
      // 250 covers every ISO country code: counts exact on any engine, no cut.
      aggs: {
        by_country: {
          terms: { field: 'country', size: 250 },
          aggs: { people: { sum: { field: 'population' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { by_country: bucketsOf(response, 'by_country', ['people']) },
    }),
  }),
  searchRow({
    id: 'places.terms_admin1',
    group: 'bucket',
    family: 'terms',
    title: "terms by first-order division of a country's cities (every division), with max population",
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { country: sampleCountry(rng) } }] } },
      aggs: {
        regions: {
          terms: { field: 'admin1', size: 200 },
          aggs: { largest: { max: { field: 'population' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { regions: bucketsOf(response, 'regions', ['largest']) },
    }),
  }),
  searchRow({
    id: 'places.range_agg_population',
    group: 'bucket',
    family: 'range',
    title: "a country's cities by size: keyed population ranges (town / city / large / metropolis)",
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { country: sampleCountry(rng) } }] } },
      aggs: {
        sizes: {
          range: {
            field: 'population',
            ranges: [
              { key: 'town', to: 10_000 },
              { key: 'city', from: 10_000, to: 100_000 },
              { key: 'large', from: 100_000, to: 1_000_000 },
              { key: 'metropolis', from: 1_000_000 },
            ],
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { sizes: namedBucketsOf(response, 'sizes') },
    }),
  }),
  searchRow({
    id: 'places.stats_population',
    group: 'metric',
    family: 'stats',
    title: "stats of a country's city populations",
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { country: sampleCountry(rng) } }] } },
      aggs: { people: { stats: { field: 'population' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: multiMetricOf(response, 'people', ['count', 'min', 'max', 'avg', 'sum']),
    }),
  }),
  searchRow({
    id: 'places.cardinality_admin1',
    group: 'metric',
    family: 'cardinality',
    title: 'distinct first-order divisions with a city of a population band (cardinality, 5%)',
    request: (rng) => ({
      size: 0,
      query: { range: { population: { gte: rng.pick(POPULATION_STEPS.slice(2)) } } },
      aggs: { divisions: { cardinality: { field: 'admin1' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: { divisions: metricOf(response, 'divisions') },
      tolerances: { divisions: CARDINALITY_TOLERANCE },
    }),
  }),
];
