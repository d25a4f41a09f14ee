import { breadthBucket } from '../define.js';
import { pickModel, pickProvider, pickWindow } from '../params.js';
import { allBucketsOf, intervalOf, widthBucketsOf } from '../signals/buckets.js';
import { bucketsOf, totalOf } from '../signals/core.js';
import type { Family } from '../types.js';

/**
 * Histograms: date_histogram (calendar, fixed, in a time zone with extended bounds),
 * auto_date_histogram, numeric histogram and variable_width_histogram. Non-empty buckets must
 * agree (keys and counts); where the request asks for empty buckets, those too.
 */

export const HISTOGRAM_ROWS: readonly Family[] = [
  {
    id: 'bucket.date_histogram_day',
    group: 'bucket',
    family: 'date_histogram',
    title: 'daily calls of a provider (calendar_interval day)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { provider: pickProvider(rng) } }] } },
      aggs: { per_day: { date_histogram: { field: '@timestamp', calendar_interval: 'day' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: bucketsOf(response, 'per_day') },
    }),
  },
  {
    id: 'bucket.date_histogram_1h',
    group: 'bucket',
    family: 'date_histogram',
    title: 'hourly avg latency of a model over 1-3 days (fixed_interval 1h, avg)',
    endpoint: '_search',
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [{ term: { model: pickModel(rng) } }, { range: { '@timestamp': pickWindow(rng, 24, 72) } }],
        },
      },
      aggs: {
        per_hour: {
          date_histogram: { field: '@timestamp', fixed_interval: '1h' },
          aggs: { avg_latency: { avg: { field: 'latency_ms' } } },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: bucketsOf(response, 'per_hour', ['avg_latency']) },
    }),
  },
  breadthBucket({
    id: 'bucket.histogram',
    family: 'histogram',
    title: 'latency_ms histogram of a model (interval 250-1000 ms)',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { model: pickModel(rng) } }] } },
      aggs: { latency: { histogram: { field: 'latency_ms', interval: rng.pick([250, 500, 1000]) } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { latency: bucketsOf(response, 'latency') },
    }),
  }),
  breadthBucket({
    id: 'bucket.auto_date_histogram',
    family: 'auto_date_histogram',
    title: 'auto_date_histogram of a 6 h-10 day window into at most 5/10/20 buckets',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 6, 240) } },
      aggs: { timeline: { auto_date_histogram: { field: '@timestamp', buckets: rng.pick([5, 10, 20]) } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { timeline: bucketsOf(response, 'timeline') },
      lists: { 'timeline.interval': [intervalOf(response, 'timeline')] },
    }),
  }),
  breadthBucket({
    id: 'bucket.variable_width_histogram',
    family: 'variable_width_histogram',
    // With every matching value inside initial_buffer the clustering runs on the sorted values,
    // so it does not depend on the order an engine visits documents in: the busiest model over
    // 12 h is about 6,000 events at 1m docs.
    title: "variable_width_histogram of a model's latency_ms over 2-12 h into 3/5/8 buckets",
    request: (rng) => ({
      size: 0,
      query: {
        bool: {
          filter: [{ term: { model: pickModel(rng) } }, { range: { '@timestamp': pickWindow(rng, 2, 12) } }],
        },
      },
      aggs: {
        widths: {
          variable_width_histogram: {
            field: 'latency_ms',
            buckets: rng.pick([3, 5, 8]),
            initial_buffer: 10000,
          },
        },
      },
    }),
    signal: (response) => ({ total: totalOf(response), metrics: widthBucketsOf(response, 'widths') }),
  }),
  breadthBucket({
    id: 'bucket.date_histogram_tz',
    family: 'date_histogram',
    // New York's DST ends on 2026-11-01, inside the extended bounds: one day is 25 hours long.
    title: 'daily date_histogram in a time zone with extended_bounds +-2 days and min_doc_count 0',
    request: (rng) => {
      const w = pickWindow(rng, 24, 24 * 5);
      const day = 86_400_000;
      return {
        size: 0,
        query: { range: { '@timestamp': w } },
        aggs: {
          per_day: {
            date_histogram: {
              field: '@timestamp',
              calendar_interval: 'day',
              time_zone: rng.pick(['America/New_York', 'Asia/Kolkata', '+05:45', 'Europe/Berlin']),
              min_doc_count: 0,
              extended_bounds: {
                min: new Date(Date.parse(w.gte) - 2 * day).toISOString(),
                max: new Date(Date.parse(w.lt) + 2 * day).toISOString(),
              },
            },
          },
        },
      };
    },
    // Every bucket, the empty ones included: filling the bounds is what the request asks for.
    signal: (response) => ({
      total: totalOf(response),
      lists: { per_day: allBucketsOf(response, 'per_day') },
    }),
  }),
];
