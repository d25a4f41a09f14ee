#!/usr/bin/env node
// The engine crate's import graph, read from its sources: which top-level folder (and which
// file) uses which, through `crate::`, `super::` and `self::` paths outside test code. A folder
// or file cycle fails the check, so the layers in ARCHITECTURE.md stay one-way.
//
//   node scripts/engine-layers.mjs            check packages/engine-core/src (exit 1 on a cycle)
//   node scripts/engine-layers.mjs --edges    also print every folder edge with its count
//   node scripts/engine-layers.mjs --dir D    check another crate's src folder
//
// No Rust parser: the crate's own conventions make lines enough (`use` trees, inline `crate::`
// paths, `#[cfg(test)] mod` blocks stripped). A path through a `mod.rs` re-export is followed to
// the file that defines the item, so a folder's facade does not count as a dependency on the
// whole folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Removes comments, string and char literals (their text can hold `crate::`). */
export function stripNoise(src) {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      let depth = 1;
      i += 2;
      while (i < src.length && depth > 0) {
        if (src[i] === '/' && src[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (src[i] === '*' && src[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          if (src[i] === '\n') out += '\n';
          i++;
        }
      }
    } else if (c === 'r' && (n === '"' || (n === '#' && /^r#+"/.test(src.slice(i, i + 12))))) {
      const hashes = /^r(#*)"/.exec(src.slice(i))[1];
      const close = `"${hashes}`;
      const end = src.indexOf(close, i + 2 + hashes.length);
      i = end < 0 ? src.length : end + close.length;
      out += '""';
    } else if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      out += '""';
    } else if (c === "'" && /^'(\\.[^']*|[^\\'])'/.test(src.slice(i, i + 12))) {
      i += /^'(\\.[^']*|[^\\'])'/.exec(src.slice(i, i + 12))[0].length;
      out += "' '";
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Drops `#[cfg(test)]` items: inline test modules and test-only functions or uses. */
export function stripTests(src) {
  let out = src;
  for (;;) {
    const at = out.indexOf('#[cfg(test)]');
    if (at < 0) return out;
    let i = at + '#[cfg(test)]'.length;
    // The item ends at its first `;` at depth 0 or at the close of its first `{` block.
    let depth = 0;
    let end = out.length;
    for (; i < out.length; i++) {
      const c = out[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          end = i + 1;
          break;
        }
      } else if (c === ';' && depth === 0) {
        end = i + 1;
        break;
      }
    }
    out = out.slice(0, at) + out.slice(end);
  }
}

/** Expands a `use` tree (`a::{b, c::{d, e as f}}`) into flat paths of segments. */
export function expandUseTree(tree) {
  // An alias (`x as y`) names the same item: the path is what counts.
  const text = tree.replace(/\s+as\s+\w+/g, '').replace(/\s+/g, '');
  const paths = [];
  const walk = (prefix, s) => {
    const brace = s.indexOf('{');
    if (brace < 0) {
      const path = s.replace(/::$/, '');
      paths.push([...prefix, ...path.split('::').filter(Boolean)]);
      return;
    }
    const head = s.slice(0, brace).split('::').filter(Boolean);
    const inner = s.slice(brace + 1, s.lastIndexOf('}'));
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= inner.length; i++) {
      const c = inner[i];
      if (c === '{') depth++;
      else if (c === '}') depth--;
      else if ((c === ',' || c === undefined) && depth === 0) {
        const part = inner.slice(start, i);
        if (part) walk([...prefix, ...head], part);
        start = i + 1;
      }
    }
  };
  walk([], text);
  return paths.map((p) => p.filter((seg) => seg !== 'self'));
}

/** The crate's module tree: module path (segments from the root) -> file. */
export function moduleFiles(srcDir) {
  const files = new Map();
  const visit = (dir, prefix) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name === 'bin') continue;
        visit(full, [...prefix, name]);
      } else if (name.endsWith('.rs')) {
        const stem = name.slice(0, -3);
        const key = stem === 'mod' || (stem === 'lib' && prefix.length === 0) ? prefix : [...prefix, stem];
        files.set(key.join('::'), full);
      }
    }
  };
  visit(srcDir, []);
  return files;
}

/** Files that only exist for tests: declared as `#[cfg(test)] mod name;`. */
function testOnlyFiles(files) {
  const out = new Set();
  for (const [mod, file] of files) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/g)) {
      const child = mod ? `${mod}::${m[1]}` : m[1];
      if (files.has(child)) out.add(files.get(child));
    }
  }
  return out;
}

/** Every path a file names from the crate root: `use` trees and inline paths. */
export function referencedPaths(code, modPath) {
  // The module a `super::` climbs from (a mod.rs is its folder's module itself).
  const selfMod = modPath;
  const resolveRel = (segs) => {
    let base = [...selfMod];
    let rest = [...segs];
    if (rest[0] === 'crate') return rest.slice(1);
    if (rest[0] === 'self') return [...base, ...rest.slice(1)];
    if (rest[0] !== 'super') return null;
    while (rest[0] === 'super') {
      base = base.slice(0, -1);
      rest = rest.slice(1);
    }
    return [...base, ...rest];
  };
  const out = [];
  for (const m of code.matchAll(/\buse\s+((?:crate|super|self)\b[^;]*);/g)) {
    for (const path of expandUseTree(m[1])) {
      const abs = resolveRel(path);
      if (abs) out.push(abs);
    }
  }
  const noUse = code.replace(/\buse\s+[^;]*;/g, '');
  for (const m of noUse.matchAll(/\b((?:crate|super|self)(?:::\w+)+)/g)) {
    const abs = resolveRel(m[1].split('::'));
    if (abs) out.push(abs);
  }
  return out;
}

/** `pub use` re-exports in a facade file: item name -> absolute path of its definition. */
function reExports(code, modPath) {
  const out = new Map();
  for (const m of code.matchAll(/\bpub(?:\([^)]*\))?\s+use\s+([^;]*);/g)) {
    const paths = expandUseTree(m[1]);
    for (const path of paths) {
      const abs = path[0] === 'crate' ? path.slice(1) : path[0] === 'super' ? null : [...modPath, ...path];
      if (!abs) continue;
      out.set(path.at(-1), abs);
    }
    const alias = /(\w+)\s+as\s+(\w+)\s*$/.exec(m[1]);
    if (alias && paths.length === 1 && out.has(alias[1])) out.set(alias[2], out.get(alias[1]));
  }
  return out;
}

/** The engine crate's file graph and folder graph. */
export function importGraph(srcDir) {
  const files = moduleFiles(srcDir);
  const skip = testOnlyFiles(files);
  const code = new Map();
  for (const [mod, file] of files) {
    if (skip.has(file)) continue;
    code.set(mod, stripTests(stripNoise(readFileSync(file, 'utf8'))));
  }
  const exportsOf = new Map();
  for (const [mod, text] of code) exportsOf.set(mod, reExports(text, mod ? mod.split('::') : []));

  // The file a path lands in: its longest module prefix, then through re-exports of a facade.
  const resolve = (segs, seen = 0) => {
    for (let n = segs.length; n >= 0; n--) {
      const mod = segs.slice(0, n).join('::');
      if (!code.has(mod)) continue;
      const item = segs[n];
      const target = item !== undefined ? exportsOf.get(mod)?.get(item) : undefined;
      if (target && seen < 8 && target.join('::') !== segs.join('::')) {
        return resolve([...target, ...segs.slice(n + 1)], seen + 1);
      }
      return mod;
    }
    return '';
  };

  const fileEdges = new Map();
  const folderEdges = new Map();
  const folderOf = (mod) => mod.split('::')[0] || '(lib)';
  for (const [mod, text] of code) {
    const segs = mod ? mod.split('::') : [];
    for (const path of referencedPaths(text, segs)) {
      const target = resolve(path);
      if (target === mod) continue;
      // A module's own descendants are below it; its ancestors' facades are not real users.
      if (target && mod.startsWith(`${target}::`)) continue;
      if (mod === '' || target === '') continue;
      addEdge(fileEdges, mod, target);
      const from = folderOf(mod);
      const to = folderOf(target);
      if (from !== to) addEdge(folderEdges, from, to);
    }
  }
  return { files, fileEdges, folderEdges, srcDir };
}

function addEdge(edges, from, to) {
  if (!edges.has(from)) edges.set(from, new Map());
  const row = edges.get(from);
  row.set(to, (row.get(to) ?? 0) + 1);
}

/** Strongly connected components with more than one member (Tarjan). */
export function cycles(edges) {
  const nodes = new Set(edges.keys());
  for (const row of edges.values()) for (const to of row.keys()) nodes.add(to);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) strong(v);
  return out;
}

/** The edges inside one cycle, as `a -> b (n)` lines: what to cut. */
export function cycleEdges(edges, comp) {
  const inside = new Set(comp);
  const lines = [];
  for (const from of comp) {
    for (const [to, n] of edges.get(from) ?? []) if (inside.has(to)) lines.push(`${from} -> ${to} (${n})`);
  }
  return lines;
}

function main(argv) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dirFlag = argv.indexOf('--dir');
  const srcDir = dirFlag >= 0 ? argv[dirFlag + 1] : join(here, '..', 'packages', 'engine-core', 'src');
  if (!existsSync(srcDir)) {
    console.error(`engine-layers: no such folder ${srcDir}; pass --dir <crate>/src`);
    return 2;
  }
  const { fileEdges, folderEdges } = importGraph(srcDir);
  if (argv.includes('--edges')) {
    for (const [from, row] of [...folderEdges].sort()) {
      console.log(`${from} -> ${[...row].map(([to, n]) => `${to} ${n}`).join(', ')}`);
    }
  }
  const folderCycles = cycles(folderEdges);
  const fileCycles = cycles(fileEdges);
  const where = relative(process.cwd(), srcDir).split(sep).join('/') || '.';
  if (folderCycles.length === 0 && fileCycles.length === 0) {
    console.log(`engine-layers: ${where}: no folder or file cycle (${fileEdges.size} files import others)`);
    return 0;
  }
  for (const comp of folderCycles) {
    console.error(`folder cycle (${comp.length}): ${comp.join(', ')}`);
    for (const line of cycleEdges(folderEdges, comp)) console.error(`  ${line}`);
  }
  for (const comp of fileCycles) {
    console.error(`file cycle (${comp.length}): ${comp.join(', ')}`);
    if (comp.length <= 6) for (const line of cycleEdges(fileEdges, comp)) console.error(`  ${line}`);
  }
  console.error(
    `engine-layers: ${folderCycles.length} folder cycle(s), ${fileCycles.length} file cycle(s) in ${where}: ` +
      'move the shared code down a layer (ARCHITECTURE.md names the layers)',
  );
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
