import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRootInfo } from '../src/engines/info.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server whose GET / answers with `root`, as each engine's root document does. */
async function rootAt(root: unknown): Promise<string> {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(root));
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the product named by GET /', () => {
  it('real Elasticsearch (no distribution, a Lucene version) is named Elasticsearch, not its node', async () => {
    const url = await rootAt({
      name: 'a1b2c3d4e5f6',
      cluster_name: 'docker-cluster',
      version: { number: '8.13.4', build_flavor: 'default', build_type: 'docker', lucene_version: '9.10.0' },
      tagline: 'You Know, for Search',
    });
    expect((await fetchRootInfo(url)).product).toBe('Elasticsearch 8.13.4');
  });

  it('OpenSearch names itself in distribution', async () => {
    const url = await rootAt({
      name: 'n',
      version: { distribution: 'opensearch', number: '2.19.1', lucene_version: '9.12.1' },
    });
    expect((await fetchRootInfo(url)).product).toBe('OpenSearch 2.19.1');
  });

  it('an ES-compatible engine on another library is named after itself and its library', async () => {
    const url = await rootAt({
      name: 'everycell 0.1.0',
      version: { number: '8.15.0', build_flavor: 'default', lucene_version: 'tantivy-0.27' },
    });
    expect((await fetchRootInfo(url)).product).toBe('everycell 0.1.0 (tantivy-0.27, ES API 8.15.0)');
  });
});
