/**
 * Bytes that are not valid HTTP/1.1 (bad request lines, headers, chunk framing, bad UTF-8 in
 * the target) get an ES-shaped 4xx from the `clientError` handler before the connection
 * closes, instead of Node's bare "400 Bad Request" or a silent reset.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esErrorShapeProblem, sendJson } from './raw-client.js';
import { type RunningServer, startServer } from './server-process.js';

/** Writes raw bytes on a fresh connection and returns everything read until the server closes it. */
function rawExchange(base: string, bytes: Buffer): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
}

function parseResponse(text: string): { status: number; headers: string; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = text.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, headers: head.toLowerCase(), body: text.slice(split + 4) };
}

const CASES: [string, Buffer, number][] = [
  ['a garbage request line', Buffer.from('HELLO\r\n\r\n'), 400],
  ['an unknown method token', Buffer.from('FROB / HTTP/1.1\r\nHost: x\r\n\r\n'), 400],
  ['a header without a colon', Buffer.from('GET / HTTP/1.1\r\nHost x\r\n\r\n'), 400],
  [
    'invalid UTF-8 bytes in the target',
    Buffer.concat([
      Buffer.from('GET /fz/_doc/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]),
    400,
  ],
  [
    'a bad chunk size',
    Buffer.from(
      'POST /x/_search HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
    ),
    400,
  ],
  [
    'Content-Length and Transfer-Encoding together',
    Buffer.from(
      'POST /x/_search HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ),
    400,
  ],
  [
    '64 KB of headers',
    Buffer.from(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`),
    431,
  ],
];

describe('malformed HTTP', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-malformed-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, bytes, status] of CASES) {
    it(`answers ${name} with an ES-shaped ${status}`, async () => {
      const reply = parseResponse(await rawExchange(server.url, bytes));
      expect(reply.status).toBe(status);
      expect(reply.headers).toContain('x-elastic-product: elasticsearch');
      expect(esErrorShapeProblem(status, reply.body)).toBeUndefined();
    });
  }

  it('answers a malformed HEAD without a body', async () => {
    const bytes = Buffer.concat([
      Buffer.from('HEAD /'),
      Buffer.from([0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    const reply = parseResponse(await rawExchange(server.url, bytes));
    expect(reply.status).toBe(400);
    expect(reply.body).toBe('');
  });

  it('answers a bad percent-escape in the path with an ES 400, not a 500', async () => {
    for (const path of ['/%zz/_search', '/fz/_doc/%ff', '/%']) {
      const reply = await sendJson(server.url, 'GET', path);
      expect(reply.status, path).toBe(400);
      expect(reply.json.error.type).toBe('illegal_argument_exception');
    }
    expect((await sendJson(server.url, 'GET', '/')).status).toBe(200);
  });
});
