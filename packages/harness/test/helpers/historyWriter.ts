/**
 * A separate process that appends one run to a history database, for the crash and
 * concurrency tests: `tsx historyWriter.ts <db> <run-id> hang|hold=<ms>`. `hang` prints
 * "inserted" with the rows in and the commit not yet done, then waits to be killed; `hold`
 * keeps the transaction (and the file) open that long, then commits and prints "committed".
 */
import { appendRun, withHistory } from '../../src/history/db.js';
import { sampleCard } from './card.js';

const [path, runId, mode = 'hold=0'] = process.argv.slice(2);
if (!path || !runId) {
  console.error('usage: historyWriter.ts <db> <run-id> hang|hold=<ms>');
  process.exit(2);
}
await withHistory(path, (conn) =>
  appendRun(conn, sampleCard(runId), {
    beforeCommit: async () => {
      console.log('inserted');
      // A pending promise alone would let Node exit (code 13): a timer keeps the process alive.
      if (mode === 'hang') await new Promise(() => setInterval(() => {}, 60_000));
      await new Promise((r) => setTimeout(r, Number(mode.replace('hold=', ''))));
    },
  }),
);
console.log('committed');
