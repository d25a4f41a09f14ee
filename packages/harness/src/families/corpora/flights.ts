import type { Rng } from '../../rng.js';
import { PERCENTILE_TOLERANCE } from '../aggs/metrics-approximate.js';
import { searchRow } from '../define.js';
import { bucketsOf, sourceValuesOf, totalOf, withTolerance } from '../signals/core.js';
import { totalAndScores } from '../signals/hits.js';
import { multiMetricOf, percentilesOf } from '../signals/metrics.js';
import type { Family } from '../types.js';

/**
 * Rows on three million real flights (`--corpus flights`), in the manner of Rally's nyc_taxis
 * track: ranges, histograms, terms and percentiles over millions of rows. Airports are the 30
 * busiest origins of the file (each 1% or more of all flights, so in any sample of 10,000 or more;
 * the corpus test proves they are the file's top 30); dates fall within its January-June 2001.
 */

/** The 30 busiest origin airports of flights-3m.parquet, busiest first. */
export const BUSY_AIRPORTS = [
  'ORD', 'DFW', 'ATL', 'LAX', 'PHX', 'STL', 'DTW', 'MSP', 'LAS', 'DEN', 'BOS', 'IAH', 'CLT', 'SFO', 'EWR',
  'PHL', 'LGA', 'PIT', 'MCO', 'SEA', 'BWI', 'DCA', 'SAN', 'MIA', 'SLC', 'SJC', 'TPA', 'CVG', 'JFK', 'OAK',
] as const; // biome-ignore format: a table

const START_MS = Date.UTC(2001, 0, 1);
const DAYS = 181;

/** 1-14 whole days inside January-June 2001. */
function pickDays(rng: Rng, minDays: number, maxDays: number): { gte: string; lt: string } {
  const length = rng.int(minDays, maxDays);
  const start = START_MS + rng.int(0, DAYS - length) * 86_400_000;
  return { gte: new Date(start).toISOString(), lt: new Date(start + length * 86_400_000).toISOString() };
}

/** An arrival delay band in minutes, from early arrivals to hours late. */
function pickDelayBand(rng: Rng): { gte: number; lt: number } {
  const gte = rng.pick([-30, -10, 0, 15, 30, 60, 120]);
  return { gte, lt: gte + rng.pick([15, 30, 60, 240]) };
}

const airport = (rng: Rng): string => rng.pick(BUSY_AIRPORTS);
const fromAirport = (rng: Rng) => ({ bool: { filter: [{ term: { origin: airport(rng) } }] } });

export const FLIGHTS_FAMILIES: readonly Family[] = [
  searchRow({
    id: 'flights.range_delay',
    group: 'query',
    family: 'range',
    title: 'range on arrival delay (a 15-240 minute band)',
    request: (rng) => ({ query: { range: { delay: pickDelayBand(rng) } }, size: 10 }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'flights.range_date',
    group: 'query',
    family: 'range',
    title: 'range on departure date (1-7 days) and distance (over 500-2000 miles)',
    request: (rng) => ({
      query: {
        bool: {
          filter: [
            { range: { date: pickDays(rng, 1, 7) } },
            { range: { distance: { gte: rng.pick([500, 1000, 2000]) } } },
          ],
        },
      },
      size: 10,
    }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'flights.sort_delay',
    group: 'query',
    family: 'sort',
    title: "an airport's 10 latest arrivals of a week (sort delay desc; ties: values compared)",
    request: (rng) => ({
      query: {
        bool: { filter: [{ term: { origin: airport(rng) } }, { range: { date: pickDays(rng, 7, 7) } }] },
      },
      sort: [{ delay: { order: 'desc' } }],
      size: 10,
    }),
    signal: (response) => ({ total: totalOf(response), sortValues: sourceValuesOf(response, 'delay') }),
  }),
  searchRow({
    id: 'flights.terms_origin',
    group: 'bucket',
    family: 'terms',
    title: 'busiest 10 origin airports of 1-14 days (terms size 10)',
    request: (rng) => ({
      size: 0,
      query: { range: { date: pickDays(rng, 1, 14) } },
      aggs: { origins: { terms: { field: 'origin', size: 10 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { origins: bucketsOf(response, 'origins') },
    }),
  }),
  searchRow({
    id: 'flights.terms_destination',
    group: 'bucket',
    family: 'terms',
    title: "an airport's every destination with avg delay (terms size 300; the file has 229 airports)",
    request: (rng) => ({
      size: 0,
      query: fromAirport(rng),
      aggs: {
        routes: { terms: { field: 'destination', size: 300 }, aggs: { late: { avg: { field: 'delay' } } } },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { routes: bucketsOf(response, 'routes', ['late']) },
    }),
  }),
  searchRow({
    id: 'flights.histogram_delay',
    group: 'bucket',
    family: 'histogram',
    title: "histogram of an airport's arrival delays (interval 15/30/60 minutes)",
    request: (rng) => ({
      size: 0,
      query: fromAirport(rng),
      aggs: { delays: { histogram: { field: 'delay', interval: rng.pick([15, 30, 60]) } } },
    }),
    signal: (response) => ({ total: totalOf(response), buckets: { delays: bucketsOf(response, 'delays') } }),
  }),
  searchRow({
    id: 'flights.histogram_distance',
    group: 'bucket',
    family: 'histogram',
    title: 'histogram of distance (interval 250 miles) with avg delay, over 1-14 days',
    request: (rng) => ({
      size: 0,
      query: { range: { date: pickDays(rng, 1, 14) } },
      aggs: {
        distances: {
          histogram: { field: 'distance', interval: 250 },
          aggs: { late: { avg: { field: 'delay' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { distances: bucketsOf(response, 'distances', ['late']) },
    }),
  }),
  searchRow({
    id: 'flights.date_histogram_day',
    group: 'bucket',
    family: 'date_histogram',
    title: "an airport's daily departures over the half year (calendar_interval day)",
    request: (rng) => ({
      size: 0,
      query: fromAirport(rng),
      aggs: { per_day: { date_histogram: { field: 'date', calendar_interval: 'day' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: bucketsOf(response, 'per_day') },
    }),
  }),
  searchRow({
    id: 'flights.stats_delay',
    group: 'metric',
    family: 'stats',
    title: 'stats of arrival delay for 1-14 days of departures',
    request: (rng) => ({
      size: 0,
      query: { range: { date: pickDays(rng, 1, 14) } },
      aggs: { late: { stats: { field: 'delay' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      metrics: multiMetricOf(response, 'late', ['count', 'min', 'max', 'avg', 'sum']),
    }),
  }),
  searchRow({
    id: 'flights.percentiles_delay',
    group: 'metric',
    family: 'percentiles',
    title: `p90/p95/p99 arrival delay of an airport (percentiles, ${PERCENTILE_TOLERANCE * 100}% tolerance)`,
    request: (rng) => ({
      size: 0,
      query: fromAirport(rng),
      // The upper tail: the median delay is near zero, where a relative tolerance means nothing.
      aggs: { late: { percentiles: { field: 'delay', percents: [90, 95, 99] } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      ...withTolerance(percentilesOf(response, 'late'), PERCENTILE_TOLERANCE),
    }),
  }),
  searchRow({
    id: 'flights.percentiles_distance',
    group: 'metric',
    family: 'percentiles',
    title: `p25/p50/p75 distance over 1-14 days (percentiles, ${PERCENTILE_TOLERANCE * 100}% tolerance)`,
    request: (rng) => ({
      size: 0,
      query: { range: { date: pickDays(rng, 1, 14) } },
      aggs: { miles: { percentiles: { field: 'distance', percents: [25, 50, 75] } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      ...withTolerance(percentilesOf(response, 'miles'), PERCENTILE_TOLERANCE),
    }),
  }),
];
