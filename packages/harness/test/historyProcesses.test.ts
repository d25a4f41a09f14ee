import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRun, historyPath, listRuns, withHistory } from '../src/history/db.js';
import { sampleCard } from './helpers/card.js';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
const WRITER = 'test/helpers/historyWriter.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-history-proc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function writer(
  path: string,
  runId: string,
  mode: string,
): { child: ChildProcess; out: () => string; done: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, runId, mode], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, done };
}

async function until(cond: () => boolean, what: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('history across processes', () => {
  it('a run killed before its commit leaves the history as it was', async () => {
    const path = historyPath(dir);
    await withHistory(path, (conn) => appendRun(conn, sampleCard('20261122T010000Z-aaaaaaa')));
    const w = writer(path, '20261122T020000Z-killed0', 'hang');
    // Every row of the run is inserted, the transaction open: now the process dies.
    await until(() => w.out().includes('inserted'), w.out);
    w.child.kill('SIGKILL');
    expect(await w.done).toBeNull();
    const runs = await withHistory(path, (conn) => listRuns(conn));
    expect(runs.map((r) => r.run_id)).toEqual(['20261122T010000Z-aaaaaaa']);
    const rows = await withHistory(path, async (conn) =>
      Number((await conn.runAndReadAll('SELECT count(*) FROM rows')).getRows()[0]?.[0]),
    );
    expect(rows).toBe(sampleCard().rows.length);
    // And it still takes new runs.
    await withHistory(path, (conn) => appendRun(conn, sampleCard('20261122T030000Z-ccccccc')));
    expect((await withHistory(path, (conn) => listRuns(conn))).length).toBe(2);
  }, 60_000);

  it('two processes appending at once both land', async () => {
    const path = historyPath(dir);
    // The first holds the file for 4 s (longer than the second one takes to start) inside its transaction; the second must wait for it.
    const a = writer(path, '20261122T040000Z-aaaaaaa', 'hold=4000');
    await until(() => a.out().includes('inserted'), a.out);
    const b = writer(path, '20261122T050000Z-bbbbbbb', 'hold=0');
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.out()).toBe(0);
    expect(cb, b.out()).toBe(0);
    expect(a.out()).toContain('committed');
    expect(b.out()).toContain('committed');
    const runs = await withHistory(path, (conn) => listRuns(conn));
    expect(runs.map((r) => r.run_id).sort()).toEqual([
      '20261122T040000Z-aaaaaaa',
      '20261122T050000Z-bbbbbbb',
    ]);
  }, 60_000);
});
