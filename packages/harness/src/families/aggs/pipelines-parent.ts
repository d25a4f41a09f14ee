import { MODELS } from '../../corpus/vocabulary.js';
import { breadthBucket } from '../define.js';
import { pickLatencyBand, pickWindow } from '../params.js';
import { totalOf } from '../signals/core.js';
import { keysInOrder, seriesOf } from '../signals/pipelines.js';
import type { Family } from '../types.js';
import { daily, hourly, providerQuery } from './pipelines-sibling.js';

/**
 * Parent pipeline aggregations (a value per bucket, or buckets reordered / dropped): derivative,
 * cumulative_sum, moving_fn, serial_diff, bucket_script, bucket_selector, bucket_sort. Inputs are
 * integer sums of `latency_ms`, as for the sibling pipelines.
 */

export const PARENT_PIPELINE_ROWS: readonly Family[] = [
  breadthBucket({
    id: 'bucket.pipeline.derivative',
    family: 'derivative',
    title: "derivative of a model's hourly latency sum over 1-3 days (gaps -> null)",
    request: (rng) =>
      hourly(rng, {
        d: { derivative: { buckets_path: 'lat', gap_policy: rng.pick(['skip', 'insert_zeros']) } },
      }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: seriesOf(response, 'per_hour', ['lat', 'd']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.cumulative_sum',
    family: 'cumulative_sum',
    title: "cumulative_sum of a model's hourly call counts over 1-3 days",
    request: (rng) => hourly(rng, { running: { cumulative_sum: { buckets_path: '_count' } } }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_hour: seriesOf(response, 'per_hour', ['running']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.moving_fn',
    family: 'moving_fn',
    title: "moving_fn over a provider's daily latency sums (window 3-7, MovingFunctions varies)",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: daily({
        mv: {
          moving_fn: {
            buckets_path: 'lat',
            window: rng.int(3, 7),
            shift: rng.pick([0, 1]),
            script: rng.pick([
              'MovingFunctions.unweightedAvg(values)',
              'MovingFunctions.linearWeightedAvg(values)',
              'MovingFunctions.max(values)',
              'MovingFunctions.min(values)',
              'MovingFunctions.sum(values)',
              'MovingFunctions.ewma(values, 0.3)',
              'MovingFunctions.holt(values, 0.3, 0.1)',
              'MovingFunctions.stdDev(values, MovingFunctions.unweightedAvg(values))',
            ]),
          },
        },
      }),
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: seriesOf(response, 'per_day', ['lat', 'mv']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.serial_diff',
    family: 'serial_diff',
    title: "serial_diff (lag 1-3 days) of a provider's daily latency sums",
    request: (rng) => ({
      size: 0,
      query: providerQuery(rng),
      aggs: daily({ diff: { serial_diff: { buckets_path: 'lat', lag: rng.int(1, 3) } } }),
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: seriesOf(response, 'per_day', ['diff']) },
    }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.bucket_script',
    family: 'bucket_script',
    title: 'bucket_script: mean latency per call of each model (sum / _count), 1-7 day window',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { sum: { field: 'latency_ms' } },
            per_call: {
              bucket_script: {
                buckets_path: { total: 'lat', calls: '_count' },
                script: rng.pick([
                  'params.total / params.calls',
                  'params.calls > 0 ? params.total / params.calls : 0',
                ]),
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: {
        by_model: seriesOf(response, 'by_model', ['per_call']).sort((a, b) =>
          String(a.key).localeCompare(String(b.key)),
        ),
      },
    }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.bucket_selector',
    family: 'bucket_selector',
    title: 'bucket_selector: models whose mean latency exceeds a band (script params), 1-7 days',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { avg: { field: 'latency_ms' } },
            slow: {
              bucket_selector: {
                buckets_path: { mean: 'lat' },
                script: { source: 'params.mean > params.floor', params: { floor: pickLatencyBand(rng).gte } },
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({ total: totalOf(response), lists: { kept: keysInOrder(response, 'by_model') } }),
  }),
  breadthBucket({
    id: 'bucket.pipeline.bucket_sort',
    family: 'bucket_sort',
    title: 'bucket_sort: models ranked by summed latency (asc/desc, from 0-1, size 3), 1-7 days',
    request: (rng) => ({
      size: 0,
      query: { range: { '@timestamp': pickWindow(rng, 24, 24 * 7) } },
      aggs: {
        by_model: {
          terms: { field: 'model', size: MODELS.length },
          aggs: {
            lat: { sum: { field: 'latency_ms' } },
            ranked: {
              bucket_sort: {
                sort: [{ lat: { order: rng.pick(['asc', 'desc']) } }],
                from: rng.int(0, 1),
                size: 3,
              },
            },
          },
        },
      },
    }),
    signal: (response) => ({
      total: totalOf(response),
      lists: { ranked: keysInOrder(response, 'by_model') },
    }),
  }),
];
