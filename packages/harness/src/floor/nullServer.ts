import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The null server: answers every request at once with a small, fixed, search-shaped JSON body
 * after reading the request in full. Run as its own process (spawnServer.ts) so it never shares
 * an event loop with the harness; what the harness measures against it is the harness's own
 * floor (client, scheduler, kernel loopback), the part of every latency that is not the engine.
 */
const BODY = JSON.stringify({
  took: 0,
  timed_out: false,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
  hits: { total: { value: 0, relation: 'eq' }, max_score: null, hits: [] },
});

/**
 * Each reply says when the request reached this process's handler and when the reply left it
 * (`x-null-server-ns: <received> <replied>`, CLOCK_MONOTONIC ns, the clock the harness reads too),
 * so the harness can split each round trip into the way there, the server, and the way back
 * (floor/floorSplit.ts).
 */
const server = createServer((req, res) => {
  const received = process.hrtime.bigint();
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(BODY),
      'x-null-server-ns': `${received} ${process.hrtime.bigint()}`,
    });
    res.end(BODY);
  });
});
// Keep-alive longer than any pause in a run, as an engine would.
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
// The parent holds our stdin: when it goes (normally or not), so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
