/**
 * `npm run bench:harness`: how much of every latency row is the harness itself. Against a null
 * server on 127.0.0.1: the harness's client vs wrk (closed loop, one connection), and the open
 * loop's latency and send lag at 1,000 req/s. Prints one table; needs Debian's `wrk`.
 */
import { parseArgs } from 'node:util';
import { benchHarness, renderHarnessTable } from '../src/floor/harnessBench.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rate: { type: 'string', default: '1000' } },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
if (!(seconds > 0 && seconds <= 60) || !(rate > 0 && rate <= 20_000)) {
  console.error(
    'bench:harness: --seconds must be in (0, 60] and --rate in (0, 20000], e.g. --seconds 5 --rate 1000',
  );
  process.exit(2);
}

try {
  const figures = await benchHarness({ seconds, openRate: rate, openCount: Math.round(rate * seconds) });
  console.log(renderHarnessTable(figures));
} catch (error) {
  console.error(`bench:harness: ${(error as Error).message}`);
  process.exit(2);
}
