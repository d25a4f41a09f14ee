import type { Rng } from '../../rng.js';
import { searchRow } from '../define.js';
import { namedBucketsOf } from '../signals/buckets.js';
import { bucketsOf, idsOf, totalOf } from '../signals/core.js';
import type { Family } from '../types.js';
import { BY_POPULATION, samplePlace, totalIdsPopulation } from './places.js';

/**
 * Geo rows on the places corpus with its `location` geo_point (`--corpus places-geo`): distance
 * and bounding-box queries, nearest cities, and grid and ring aggregations, around real cities.
 * An engine without a geo_point type refuses the index, so there every row is N/A with the
 * engine's own error; none is faked.
 *
 * Boundaries: coordinates are given to 1e-5 degrees, so box edges sit half a step off that grid
 * (no city on an edge); a city exactly on a distance circle is a 1-in-thousands event per request
 * and would show as a result difference, not a verdict.
 */

const point = (rng: Rng) => {
  const p = samplePlace(rng);
  return { lat: p.latitude, lon: p.longitude };
};

const clamp = (x: number, limit: number) => Math.max(-limit, Math.min(limit, x));

export const PLACES_GEO_FAMILIES: readonly Family[] = [
  searchRow({
    id: 'geo.distance',
    group: 'query',
    family: 'geo_distance',
    title: 'geo_distance: cities within 10-250 km of a real city, largest 10 first',
    request: (rng) => ({
      query: {
        bool: {
          filter: [
            {
              geo_distance: { distance: rng.pick(['10km', '50km', '100km', '250km']), location: point(rng) },
            },
          ],
        },
      },
      sort: BY_POPULATION,
      size: 10,
    }),
    signal: totalIdsPopulation,
  }),
  searchRow({
    id: 'geo.bounding_box',
    group: 'query',
    family: 'geo_bounding_box',
    title: 'geo_bounding_box: cities in a box 1-6 degrees wide around a real city, largest 10 first',
    request: (rng) => {
      const { lat, lon } = point(rng);
      const half = rng.pick([0.5, 1, 2, 3]) + 5e-6;
      return {
        query: {
          bool: {
            filter: [
              {
                geo_bounding_box: {
                  location: {
                    top_left: { lat: clamp(lat + half, 90), lon: clamp(lon - half, 180) },
                    bottom_right: { lat: clamp(lat - half, 90), lon: clamp(lon + half, 180) },
                  },
                },
              },
            ],
          },
        },
        sort: BY_POPULATION,
        size: 10,
      };
    },
    signal: totalIdsPopulation,
  }),
  searchRow({
    id: 'geo.sort_distance',
    group: 'query',
    family: 'sort',
    title: 'the 10 cities nearest a real point in a country (sort _geo_distance)',
    request: (rng) => {
      const p = samplePlace(rng);
      return {
        query: { bool: { filter: [{ term: { country: p.country } }] } },
        sort: [
          { _geo_distance: { location: { lat: p.latitude + 0.01, lon: p.longitude + 0.01 }, order: 'asc' } },
        ],
        size: 10,
      };
    },
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  }),
  searchRow({
    id: 'geo.geohash_grid',
    group: 'bucket',
    family: 'geohash_grid',
    title: "geohash_grid of a country's cities (precision 2-4, every cell)",
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { country: samplePlace(rng).country } }] } },
      aggs: { cells: { geohash_grid: { field: 'location', precision: rng.int(2, 4), size: 10_000 } } },
    }),
    signal: (response) => ({ total: totalOf(response), buckets: { cells: bucketsOf(response, 'cells') } }),
  }),
  searchRow({
    id: 'geo.distance_agg',
    group: 'bucket',
    family: 'geo_distance',
    title: 'geo_distance aggregation: cities in rings of 0-50, 50-200, 200-1000 and 1000+ km of a real city',
    request: (rng) => ({
      size: 0,
      aggs: {
        rings: {
          geo_distance: {
            field: 'location',
            origin: point(rng),
            unit: 'km',
            ranges: [
              { key: 'near', to: 50 },
              { key: 'region', from: 50, to: 200 },
              { key: 'far', from: 200, to: 1000 },
              { key: 'beyond', from: 1000 },
            ],
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { rings: namedBucketsOf(response, 'rings') },
    }),
  }),
];
