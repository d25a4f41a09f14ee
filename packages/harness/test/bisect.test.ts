import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBisect } from '../src/bisect/run.js';
import { type BisectStep, bisect } from '../src/bisect/search.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';

describe('bisect search', () => {
  const commits = ['g', 'a', 'b', 'c', 'd', 'e', 'f', 'h'];
  const slowFrom =
    (first: string) =>
    async (revision: string): Promise<BisectStep> => ({
      revision,
      verdict: commits.indexOf(revision) >= commits.indexOf(first) ? 'REGRESSED' : 'SAME',
      reason: 'fake',
    });

  it('names the first regressed commit in log2 steps, measuring the bad end first', async () => {
    for (const first of ['a', 'c', 'f', 'h']) {
      const result = await bisect(commits, slowFrom(first));
      expect(result.first?.revision, first).toBe(first);
      expect(result.steps[0]?.revision).toBe('h');
      expect(result.steps.length).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(commits.length - 1)));
    }
  });

  it('says so when the bad end does not regress', async () => {
    const result = await bisect(commits, async (revision) => ({ revision, verdict: 'SAME', reason: 'fake' }));
    expect(result.first).toBeUndefined();
    expect(result.note).toMatch(/^h does not regress against g \(SAME\)/);
  });

  it('never measures a commit whose engine equals a known end', async () => {
    const measured: string[] = [];
    const test = async (revision: string) => {
      measured.push(revision);
      return slowFrom('e')(revision);
    };
    // Engine changes only at e: a..d share g's engine, f and h share e's.
    const engineOf = (r: string) => (commits.indexOf(r) >= commits.indexOf('e') ? 'slow' : 'fast');
    const result = await bisect(commits, test, (x, y) => engineOf(x) === engineOf(y));
    expect(result.first?.revision).toBe('e');
    // e's engine is h's, so h's measurement stands for it: only the bad end was built.
    expect(measured).toEqual(['h']);
    expect(result.steps.filter((s) => s.inferred).map((s) => s.revision)).toEqual(['c', 'e', 'd']);
  });
});

/**
 * A fixture repository whose "engine" is a small ES-shaped server that spends the CPU time named
 * in packages/engine-core/work.json on every search; one commit plants a slowdown (1 -> 8 ms).
 * The margin is 50% here, not the gate's 10%: this machine is shared, and the test is about which
 * commit bisect names, not about how small a slowdown it can see (the calibration measures that).
 * Bisect builds nothing (the build step only checks the server is there), starts the two builds,
 * loads them, measures the row in forks and must name the planted commit.
 */
const SERVER = `
import { createServer } from 'node:http';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
const here = dirname(fileURLToPath(import.meta.url));
const workMs = JSON.parse(readFileSync(join(here, '..', '..', 'engine-core', 'work.json'), 'utf8')).ms;
const arg = (k) => process.argv[process.argv.indexOf(k) + 1];
const dataDir = arg('--data-dir');
mkdirSync(dataDir, { recursive: true });
const countFile = join(dataDir, 'count');
let docs = existsSync(countFile) ? Number(readFileSync(countFile, 'utf8')) : 0;
const spin = (ms) => { const end = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6)); while (process.hrtime.bigint() < end); };
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    const path = req.url.split('?')[0];
    const send = (o) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(o)); };
    if (req.method === 'GET' && path === '/') return send({ name: 'fixture', version: { number: '8.15.0' }, tagline: 'You Know, for Search' });
    if (path.endsWith('/_bulk')) { docs += body.split('\\n').filter(Boolean).length / 2; writeFileSync(countFile, String(docs)); return send({ errors: false, items: [] }); }
    if (path.endsWith('/_refresh')) return send({ _shards: { total: 1, successful: 1, failed: 0 } });
    if (path.endsWith('/_count')) return send({ count: docs });
    if (path.endsWith('/_search')) { spin(workMs); return send({ took: 1, hits: { total: { value: 7, relation: 'eq' }, hits: [] } }); }
    if (req.method === 'DELETE') { docs = 0; writeFileSync(countFile, '0'); return send({ acknowledged: true }); }
    return send({ acknowledged: true });
  });
});
server.listen(Number(arg('--port')), '127.0.0.1', () => console.log('everycell-engine listening on http://127.0.0.1:' + arg('--port')));
process.on('SIGTERM', () => process.exit(0));
`;

describe('bisect on a fixture repository with a planted slowdown', () => {
  const repo = mkdtempSync(join(tmpdir(), 'everycell-bisect-'));
  afterAll(() => {
    try {
      execFileSync('git', ['worktree', 'prune'], { cwd: repo });
    } catch {}
    rmSync(repo, { recursive: true, force: true });
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();
  const commit = (files: Record<string, string>, message: string) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(repo, file, '..'), { recursive: true });
      writeFileSync(join(repo, file), text);
    }
    git('add', '-A');
    git('commit', '-qm', message);
    return git('rev-parse', 'HEAD');
  };

  it('names the commit that planted the slowdown, with its figures', async () => {
    git('init', '-q', '-b', 'main');
    const good = commit(
      {
        'packages/engine-napi/dist/server.js': SERVER,
        'packages/engine-napi/package.json': '{"type":"module"}',
        'packages/engine-core/work.json': '{"ms": 1}',
      },
      'engine',
    );
    commit({ 'README.md': 'docs' }, 'docs');
    commit({ 'packages/engine-core/work.json': '{"ms": 1.0}' }, 'a no-op engine change');
    const planted = commit({ 'packages/engine-core/work.json': '{"ms": 8}' }, 'planted slowdown');
    commit({ 'README.md': 'more docs' }, 'docs again');
    const bad = commit(
      { 'packages/engine-napi/package.json': '{"type":"module","x":1}' },
      'unrelated engine package change',
    );

    const family = ALL_FAMILIES.find((f) => f.id === 'query.term') as Family;
    const log: string[] = [];
    const result = await runBisect({
      repo,
      family,
      corpus: 'llm-telemetry',
      good,
      bad,
      settings: {
        ...DEFAULT_SETTINGS,
        docs: 300,
        bulkSize: 100,
        forks: 3,
        rounds: 2,
        iterations: 120,
        warmup: 2,
        prewarm: 10,
        confidence: 0.95,
        maxSendLagP99Ms: 10_000,
        regressionMargin: 0.5,
      },
      build: (pkg) => {
        execFileSync('test', ['-f', join(pkg, 'dist', 'server.js')]);
      },
      log: (line) => log.push(line),
    });
    expect(result.first?.revision, log.join('\n')).toBe(planted);
    expect(result.first?.verdict).toBe('REGRESSED');
    expect(result.first?.reason).toMatch(/latency .* worse beyond the margin|CPU worse beyond the margin/);
    // Five commits after good; the docs-only ones are inferred, never built.
    expect(result.steps.filter((s) => !s.inferred).length).toBeLessThanOrEqual(4);
  }, 240_000);
});
