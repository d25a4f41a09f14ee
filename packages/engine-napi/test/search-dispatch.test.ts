/**
 * Which may-be-heavy searches leave the event loop for the thread pool: they must until they
 * have shown they are cheap (or two of them cannot use both cores). Which searches may be
 * heavy is the engine's call (`search/cost.rs`, with its own tests); the cheap ones never
 * come here.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { allowedCpus, SearchDispatcher, shapeOf } from '../ts/search-dispatch.js';

const buf = (body: unknown) => Buffer.from(JSON.stringify(body));
const decide = (d: SearchDispatcher, body: unknown, index = 'i') => d.decide(index, buf(body));

const twoCpus = () => 2;

describe('search dispatch', () => {
  it('sends a may-be-heavy search to the thread pool until its shape is known', () => {
    const d = new SearchDispatcher(twoCpus);
    expect(decide(d, { size: 0, aggs: { t: { terms: { field: 'model' } } } }).async).toBe(true);
    expect(decide(d, { query: { term: { model: 'x' } }, sort: [{ '@timestamp': 'desc' }] }).async).toBe(true);
    expect(decide(d, { query: { prefix: { model: 'gpt' } } }).async).toBe(true);
  });

  it('runs a shape inline once its recent average is cheap, and moves it back when it is not', () => {
    const d = new SearchDispatcher(twoCpus);
    const sorted = (model: string) => ({ query: { term: { model } }, sort: [{ latency_ms: 'desc' }] });
    const first = decide(d, sorted('a'));
    expect(first.async).toBe(true);
    d.record(first.key, 0.4);
    // Another value, same shape: learned.
    expect(decide(d, sorted('b')).async).toBe(false);
    // The same shape on another index is not.
    expect(decide(d, sorted('b'), 'other').async).toBe(true);
    for (let i = 0; i < 10; i++) d.record(decide(d, sorted('c')).key, 6);
    expect(decide(d, sorted('a')).async).toBe(true);
  });

  it('never learns very long bodies', () => {
    const d = new SearchDispatcher(twoCpus);
    const long = {
      query: { terms: { id: Array.from({ length: 1000 }, (_, i) => `id-${i}`) } },
      sort: ['_doc'],
    };
    const decision = decide(d, long);
    expect(decision).toEqual({ async: true });
  });

  it('runs everything inline while the process may use one CPU only, and learns meanwhile', () => {
    let cpus = 1;
    const d = new SearchDispatcher(() => cpus);
    const heavy = { size: 0, aggs: { t: { terms: { field: 'model' } } } };
    const first = decide(d, heavy);
    expect(first.async).toBe(false);
    d.record(first.key, 6);
    const long = { query: { terms: { id: Array.from({ length: 1000 }, (_, i) => `id-${i}`) } } };
    expect(decide(d, long)).toEqual({ async: false });
    // Given a second CPU again, the shape learnt as heavy goes back to the pool.
    cpus = 2;
    expect(decide(d, heavy).async).toBe(true);
    expect(decide(d, long)).toEqual({ async: true });
  });

  it.skipIf(availableParallelism() < 2)('sees its affinity change, reading it at most once a second', () => {
    const pin = (list: string) => execFileSync('taskset', ['-a', '-p', '-c', list, String(process.pid)]);
    // Restored to what it was, whatever the runner gave this process.
    const all = execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' })
      .trim()
      .split(': ')
      .pop();
    const first = all?.split(/[,-]/)[0] ?? '0';
    let now = 0;
    const cpus = allowedCpus(() => now);
    expect(cpus()).toBeGreaterThanOrEqual(2);
    try {
      pin(first);
      now = 999;
      expect(cpus()).toBeGreaterThanOrEqual(2);
      now = 1000;
      expect(cpus()).toBe(1);
    } finally {
      pin(all ?? '0');
    }
    now = 2000;
    expect(cpus()).toBeGreaterThanOrEqual(2);
  });

  it('takes the keys of a body as its shape, not its values', () => {
    expect(shapeOf(buf({ query: { term: { model: 'x:y' } } }))).toBe(
      shapeOf(buf({ query: { term: { model: 'z' } } })),
    );
    expect(shapeOf(buf({ query: { term: { model: 'x' } } }))).not.toBe(
      shapeOf(buf({ query: { term: { tenant: 'x' } } })),
    );
    // An escaped quote inside a key does not end it early.
    expect(shapeOf(Buffer.from('{"a\\"b": 1, "c": "d"}'))).toBe('a\\"b\u0000c\u0000');
  });
});
