// The target-folder guard's own tests, on a scratch target folder (cargo clean works on any):
// a foreign tree's mark and artifacts are cleared, a build that compiled nothing is told apart
// from one that compiled the engine. Run: node --test scripts/engine-target.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'engine-target.mjs');
const REPO = resolve(dirname(SCRIPT), '..');
const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A scratch target folder holding engine-core artifact slots last written at `mtimes` (ms). */
function target(mtimes = []) {
  const root = mkdtempSync(join(tmpdir(), 'engine-target-'));
  roots.push(root);
  const prints = join(root, 'x86_64-unknown-linux-gnu', 'release', '.fingerprint');
  mtimes.forEach((ms, i) => {
    const slot = join(prints, `everycell-engine-core-${String(i).padStart(16, '0')}`);
    mkdirSync(slot, { recursive: true });
    writeFileSync(join(slot, 'lib-everycell_engine_core'), 'x');
    utimesSync(slot, ms / 1000, ms / 1000);
  });
  return { root, prints };
}

const run = (dir, ...args) =>
  spawnSync('node', [SCRIPT, ...args], { env: { ...process.env, CARGO_TARGET_DIR: dir }, encoding: 'utf8' });

test('compiled-since: every engine slot written after the start, and at least one', () => {
  const now = Date.now();
  assert.equal(run(target([now]).root, 'compiled-since', String(now - 5000)).status, 0);
  assert.equal(run(target([now - 60_000]).root, 'compiled-since', String(now - 5000)).status, 1);
  assert.equal(run(target([now, now - 60_000]).root, 'compiled-since', String(now - 5000)).status, 1);
  assert.equal(run(target([]).root, 'compiled-since', String(now - 5000)).status, 1);
  assert.equal(run(target([now]).root, 'compiled-since', 'soon').status, 2);
});

test('begin-foreign clears the engine slots and marks the tree; end-foreign clears both', () => {
  const { root, prints } = target([Date.now()]);
  const slot = join(prints, `everycell-engine-core-${'0'.repeat(16)}`);
  assert.equal(run(root, 'begin-foreign', '/some/worktree').status, 0);
  assert.equal(existsSync(slot), false);
  assert.equal(readFileSync(join(root, '.foreign-engine-build'), 'utf8').trim(), '/some/worktree');
  assert.equal(run(root, 'end-foreign').status, 0);
  assert.equal(existsSync(join(root, '.foreign-engine-build')), false);
});

test('clear-foreign: an interrupted foreign build is cleared, the marked tree itself and a clean folder are left', () => {
  const interrupted = target([Date.now()]);
  writeFileSync(join(interrupted.root, '.foreign-engine-build'), '/some/worktree\n');
  const r = run(interrupted.root, 'clear-foreign');
  assert.equal(r.status, 0);
  assert.match(r.stderr, /a build of \/some\/worktree was interrupted/);
  assert.equal(existsSync(join(interrupted.root, '.foreign-engine-build')), false);
  assert.equal(run(interrupted.root, 'compiled-since', '0').status, 1, 'its engine slot is gone');

  const own = target([Date.now()]);
  writeFileSync(join(own.root, '.foreign-engine-build'), `${REPO}\n`);
  assert.equal(run(own.root, 'clear-foreign').status, 0);
  assert.equal(existsSync(join(own.root, '.foreign-engine-build')), true);
  assert.equal(run(own.root, 'compiled-since', '0').status, 0, 'its engine slot is kept');

  const clean = target([Date.now()]);
  assert.equal(run(clean.root, 'clear-foreign').status, 0);
  assert.equal(run(clean.root, 'compiled-since', '0').status, 0);
});
