#!/usr/bin/env node
// Keeps the shared cargo target folder honest when another checkout of this repository (a
// merge-base or bisect worktree under .runs/base-builds/) builds the engine into it.
//
// Cargo gives a workspace crate the same artifact slot in every checkout (the slot's hash comes
// from the package's path relative to its workspace, the same in each worktree) and calls it
// fresh when the checkout's sources are older than the artifact. So with one target folder,
// whichever tree compiled last wins: a worktree created before this checkout's last build, or
// this checkout after a worktree's build, reports "Fresh" and links the other tree's engine.
// A count check or A/B run built that way compares a build with itself.
//
//   node scripts/engine-target.mjs begin-foreign TREE   clear the engine crates' artifacts and mark
//                                                       the folder as holding TREE's engine
//   node scripts/engine-target.mjs end-foreign          clear them again and drop the mark
//   node scripts/engine-target.mjs clear-foreign        before a build of this checkout: clear them
//                                                       if a foreign build left its mark (it was
//                                                       interrupted); a no-op otherwise
//   node scripts/engine-target.mjs compiled-since MS    exit 1 unless the engine crate was compiled
//                                                       after MS (epoch ms): a build that found it
//                                                       fresh after begin-foreign linked nothing new
//
// The target folder is $CARGO_TARGET_DIR, else this repository's target/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TRIPLE = 'x86_64-unknown-linux-gnu';
/** The workspace's own crates: the only ones whose sources differ between checkouts. */
const CRATES = ['everycell-engine-core', 'everycell-engine-napi'];

const targetDir = () => resolve(process.env.CARGO_TARGET_DIR ?? join(REPO, 'target'));
const markPath = () => join(targetDir(), '.foreign-engine-build');

function clearEngineCrates() {
  if (!existsSync(targetDir())) return;
  const args = ['clean', '--manifest-path', join(REPO, 'Cargo.toml'), '--release', '--target', TRIPLE];
  for (const c of CRATES) args.push('-p', c);
  const r = spawnSync('cargo', [...args, '--quiet'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`cargo clean of the engine crates in ${targetDir()} failed`);
}

function main([command, arg]) {
  switch (command) {
    case 'begin-foreign':
      if (!arg) throw new Error('begin-foreign needs the tree whose engine is about to be built');
      clearEngineCrates();
      mkdirSync(targetDir(), { recursive: true });
      writeFileSync(markPath(), `${resolve(arg)}\n`);
      return 0;
    case 'end-foreign':
      clearEngineCrates();
      rmSync(markPath(), { force: true });
      return 0;
    case 'clear-foreign': {
      if (!existsSync(markPath())) return 0;
      const tree = readFileSync(markPath(), 'utf8').trim();
      // The foreign tree's own build runs its copy of this script too (build:native): keep its mark.
      if (tree === REPO) return 0;
      console.error(`engine-target: a build of ${tree} was interrupted; clearing its engine artifacts`);
      clearEngineCrates();
      rmSync(markPath(), { force: true });
      return 0;
    }
    case 'compiled-since': {
      const since = Number(arg);
      if (!Number.isFinite(since)) throw new Error('compiled-since needs a time in epoch milliseconds');
      const dir = join(targetDir(), TRIPLE, 'release', '.fingerprint');
      const slots = existsSync(dir) ? readdirSync(dir).filter((d) => d.startsWith(`${CRATES[0]}-`)) : [];
      const fresh = slots.filter((d) => statSync(join(dir, d)).mtimeMs >= since);
      return fresh.length > 0 && fresh.length === slots.length ? 0 : 1;
    }
    default:
      console.error(
        'usage: node scripts/engine-target.mjs begin-foreign TREE | end-foreign | clear-foreign | compiled-since MS',
      );
      return 2;
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`engine-target: ${error.message}`);
  process.exitCode = 2;
}
