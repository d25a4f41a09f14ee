import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { preciseSleepUntil } from '../load/clock.js';

/**
 * A' for calibration: a reverse proxy in its own process that forwards every request to the
 * upstream engine, reads the whole answer, then holds it for `fraction` of the time the
 * upstream took before replying: a true proportional slowdown (10% of each request's own
 * service time, not a fixed delay). With `--fraction 0` it is the same hop without the delay,
 * which the other side goes through so both pay the proxy's own cost.
 *
 * Usage: tsx src/calibrate/delayProxy.ts --upstream http://127.0.0.1:9200 --fraction 0.1
 */
const { values } = parseArgs({
  options: { upstream: { type: 'string' }, fraction: { type: 'string', default: '0' } },
});
const fraction = Number(values.fraction);
if (!values.upstream || !(fraction >= 0 && fraction < 10)) {
  process.stderr.write('delayProxy: needs --upstream http://host:port and --fraction in [0, 10), e.g. 0.1\n');
  process.exit(2);
}
const upstream = new Pool(values.upstream, { connections: 64, pipelining: 1 });
/** Response headers that describe this hop, not the payload: Node sets its own. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const server = createServer(async (req, res) => {
  try {
    const body = await readBody(req);
    const start = process.hrtime.bigint();
    const answer = await upstream.request({
      method: (req.method ?? 'GET') as 'GET',
      path: req.url ?? '/',
      headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
      body: body.length > 0 ? body : undefined,
    });
    const payload = Buffer.from(await answer.body.arrayBuffer());
    const took = process.hrtime.bigint() - start;
    if (fraction > 0)
      await preciseSleepUntil(process.hrtime.bigint() + BigInt(Math.round(Number(took) * fraction)));
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    res.writeHead(answer.statusCode, headers);
    res.end(payload);
  } catch (error) {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { type: 'proxy_exception', reason: (error as Error).message }, status: 502 }),
    );
  }
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
