// The layer check's own tests: it must see a planted folder or file cycle, follow re-exports
// and aliases, and leave test code out. Run: node --test scripts/engine-layers.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { cycles, expandUseTree, importGraph, stripNoise, stripTests } from './engine-layers.mjs';

const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A crate's src folder from `{ 'path.rs': 'text' }`. */
function crate(files) {
  const root = mkdtempSync(join(tmpdir(), 'engine-layers-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const layered = {
  'lib.rs': 'pub mod low;\npub mod high;\n',
  'low/mod.rs': 'pub mod value;\npub use value::Value;\n',
  'low/value.rs': 'pub struct Value;\n',
  'high/mod.rs': 'pub mod user;\n',
  'high/user.rs': 'use crate::low::Value;\npub fn f(_: Value) {}\n',
};

test('a one-way crate has no cycle', () => {
  const { folderEdges, fileEdges } = importGraph(crate(layered));
  assert.deepEqual(cycles(folderEdges), []);
  assert.deepEqual(cycles(fileEdges), []);
  // The facade's re-export leads to the file that defines the item.
  assert.deepEqual([...fileEdges.get('high::user').keys()], ['low::value']);
});

test('a planted upward import is a folder cycle', () => {
  const src = crate({
    ...layered,
    'low/value.rs': 'pub struct Value;\npub fn g() { crate::high::user::f(Value) }\n',
  });
  const { folderEdges } = importGraph(src);
  assert.deepEqual(cycles(folderEdges), [['high', 'low']]);
});

test('two files of one folder using each other are a file cycle', () => {
  const src = crate({
    'lib.rs': 'pub mod a;\n',
    'a/mod.rs': 'mod x;\nmod y;\n',
    'a/x.rs': 'use super::y::Y;\npub struct X(Y);\n',
    'a/y.rs': 'pub struct Y;\npub fn z(_: super::x::X) {}\n',
  });
  const { folderEdges, fileEdges } = importGraph(src);
  assert.deepEqual(cycles(folderEdges), []);
  assert.deepEqual(cycles(fileEdges), [['a::x', 'a::y']]);
});

test('test modules, test-only files, comments and strings do not count', () => {
  const src = crate({
    ...layered,
    'low/mod.rs': 'pub mod value;\n#[cfg(test)]\nmod fixtures;\npub use value::Value;\n',
    'low/fixtures.rs': 'use crate::high::user::f;\n',
    'low/value.rs':
      '// crate::high::user\npub struct Value;\nconst S: &str = "crate::high::user";\n#[cfg(test)]\nmod tests {\n    use crate::high::user::f;\n}\n',
  });
  assert.deepEqual(cycles(importGraph(src).folderEdges), []);
});

test('use trees expand, aliases keep their path', () => {
  assert.deepEqual(expandUseTree('crate::a::{b, c::{d, e as f}, self}'), [
    ['crate', 'a', 'b'],
    ['crate', 'a', 'c', 'd'],
    ['crate', 'a', 'c', 'e'],
    ['crate', 'a'],
  ]);
  // A name ending in "as..." is not an alias.
  assert.deepEqual(expandUseTree('crate::aggs::collect::key_hasher::KeyMap'), [
    ['crate', 'aggs', 'collect', 'key_hasher', 'KeyMap'],
  ]);
  assert.equal(stripTests(stripNoise('a\n#[cfg(test)]\nfn t() { "}" }\nb')).replace(/\s+/g, ''), 'ab');
});
