/**
 * The `hdr` method of `percentiles` and `percentile_ranks` over HTTP: answers are the edges of
 * an HDR histogram's buckets (not the values), the significant digits are validated, and
 * `typed_keys` names the HDR result types.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

const search = async (body: unknown, query = '') => req(server.url, 'POST', `/hdr/_search${query}`, body);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-hdr-'));
  server = await startServer(dataDir);
  const mappings = { properties: { n: { type: 'integer' }, d: { type: 'double' } } };
  expect((await req(server.url, 'PUT', '/hdr', { mappings })).status).toBe(200);
  for (const [id, n] of [1, 51, 101, 151].entries()) {
    await req(server.url, 'PUT', `/hdr/_doc/${id}`, { n, d: n });
  }
  await req(server.url, 'POST', '/hdr/_refresh');
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('percentiles with the hdr method', () => {
  it('answers the highest value equivalent to each percentile bucket', async () => {
    const res = await search({ size: 0, aggs: { p: { percentiles: { field: 'n', hdr: {} } } } });
    expect(res.status).toBe(200);
    const values = res.json.aggregations.p.values;
    // With 1 the smallest value, one unit is 1/1024: 51 lands in a bucket 1/32 wide.
    expect(values['25.0']).toBe(1);
    expect(values['50.0']).toBe(51.0302734375);
    expect(values['99.0']).toBe(151.1240234375);
  });

  it('scales the unit to the smallest value a query keeps', async () => {
    const res = await search({
      size: 0,
      query: { range: { n: { gte: 50 } } },
      aggs: { p: { percentiles: { field: 'd', hdr: { number_of_significant_value_digits: 3 } } } },
    });
    expect(res.json.aggregations.p.values['50.0']).toBe(101.03125);
  });

  it('ranks values by whole buckets, and names hdr types in typed_keys', async () => {
    const res = await search(
      {
        size: 0,
        aggs: { r: { percentile_ranks: { field: 'n', values: [51, 200], keyed: false, hdr: {} } } },
      },
      '?typed_keys=true',
    );
    expect(res.json.aggregations['hdr_percentile_ranks#r'].values).toEqual([
      { key: 51, value: 50 },
      { key: 200, value: 100 },
    ]);
  });

  it('rejects significant digits outside 0..5', async () => {
    const res = await search({
      aggs: { p: { percentiles: { field: 'n', hdr: { number_of_significant_value_digits: 6 } } } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('[numberOfSignificantValueDigits] must be between 0 and 5');
  });
});
