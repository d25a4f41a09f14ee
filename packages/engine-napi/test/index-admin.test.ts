/**
 * Index administration over HTTP: templates (the overlap warning as ES's `Warning` header,
 * `_cat/templates`' table), closing and opening, blocks, cluster settings and rollover.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, req, startServer } from './server-process.js';

describe('index administration', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-admin-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies templates and warns as ES does when a composable template shadows a legacy one', async () => {
    const legacy = await req(server.url, 'PUT', '/_template/v1', {
      index_patterns: ['t*'],
      order: 1,
      version: 3,
      settings: { number_of_shards: 1 },
    });
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('warning')).toBeNull();
    const composable = await req(server.url, 'PUT', '/_index_template/v2', {
      index_patterns: ['te*'],
      template: { mappings: { properties: { f: { type: 'keyword' } } } },
    });
    expect(composable.status).toBe(200);
    expect(composable.headers.get('warning')).toBe(
      '299 Elasticsearch-8.15.0 "index template [v2] has index patterns [te*] matching patterns from existing older templates [v1] with patterns (v1 => [t*]); this template [v2] will take precedence during new index creation"',
    );
    await req(server.url, 'PUT', '/test-1');
    const got = await req(server.url, 'GET', '/test-1/_mapping');
    expect(got.json['test-1'].mappings.properties.f.type).toBe('keyword');
    const table = await fetch(`${server.url}/_cat/templates?v`).then((r) => r.text());
    expect(table).toBe(
      'name index_patterns order version composed_of\nv1   [t*]           1     3       \nv2   [te*]                        []\n',
    );
    expect((await req(server.url, 'GET', '/_template/nope')).status).toBe(404);
    expect((await req(server.url, 'HEAD', '/_index_template/v2')).status).toBe(200);
  });

  it('refuses reads of a closed index and writes of a write-blocked one', async () => {
    await req(server.url, 'PUT', '/closing');
    const closed = await req(server.url, 'POST', '/closing/_close');
    expect(closed.json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      indices: { closing: { closed: true } },
    });
    const search = await req(server.url, 'POST', '/closing/_search', {});
    expect(search.status).toBe(400);
    expect(search.json.error.type).toBe('index_closed_exception');
    expect((await req(server.url, 'POST', '/closing/_open')).status).toBe(200);
    expect((await req(server.url, 'PUT', '/closing/_block/write')).json.indices).toEqual([
      { name: 'closing', blocked: true },
    ]);
    const write = await req(server.url, 'PUT', '/closing/_doc/1', { a: 1 });
    expect(write.status).toBe(403);
    expect(write.json.error.reason).toBe('index [closing] blocked by: [FORBIDDEN/8/index write (api)];');
  });

  it('keeps cluster settings and rolls an alias over', async () => {
    const put = await req(server.url, 'PUT', '/_cluster/settings?flat_settings=true', {
      persistent: { 'cluster.routing.allocation.enable': 'none' },
    });
    expect(put.json).toEqual({
      acknowledged: true,
      persistent: { 'cluster.routing.allocation.enable': 'none' },
      transient: {},
    });
    const got = await req(server.url, 'GET', '/_cluster/settings');
    expect(got.json.persistent.cluster.routing.allocation.enable).toBe('none');
    const unknown = await req(server.url, 'PUT', '/_cluster/settings', { transient: { 'no.such': 1 } });
    expect(unknown.status).toBe(400);
    await req(server.url, 'PUT', '/logs-1', { aliases: { logs: {} } });
    const rolled = await req(server.url, 'POST', '/logs/_rollover', {});
    expect(rolled.json).toMatchObject({ old_index: 'logs-1', new_index: 'logs-000002', rolled_over: true });
  });
});
