import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../src/cli/args.js';

describe('mixed and sweep flags', () => {
  it('default to a 2000 docs/s write load, sweeps on, a 50 ms p99 bound', () => {
    const a = parseBenchArgs([]);
    expect(a.mixedWriteRate).toBe(2000);
    expect(a.sweep).toBe(true);
    expect(a.sweepP99Ms).toBe(50);
  });

  it('parse --mixed-write-rate (0 turns the rows off), --no-sweep and --sweep-p99-ms', () => {
    const a = parseBenchArgs(['--mixed-write-rate', '5k', '--no-sweep', '--sweep-p99-ms', '20']);
    expect(a.mixedWriteRate).toBe(5000);
    expect(a.sweep).toBe(false);
    expect(a.sweepP99Ms).toBe(20);
    expect(parseBenchArgs(['--mixed-write-rate', '0']).mixedWriteRate).toBe(0);
  });

  it('--sweep adds the throughput rows to an explicit --families selection', () => {
    expect(parseBenchArgs(['--families', 'query.term', '--sweep']).settings.families).toBe(
      'query.term,throughput.*',
    );
    expect(parseBenchArgs(['--families', 'query.term']).settings.families).toBe('query.term');
    // Mixed and throughput ids alone are a valid selection.
    expect(parseBenchArgs(['--families', 'mixed.*']).settings.families).toBe('mixed.*');
  });

  it('--mixed is the default made explicit; --no-mixed leaves the rows out', () => {
    expect(parseBenchArgs(['--mixed']).mixedWriteRate).toBe(2000);
    expect(parseBenchArgs(['--mixed']).settings.families).toBe('*');
    expect(parseBenchArgs(['--families', 'query.term', '--mixed']).settings.families).toBe(
      'query.term,mixed.*',
    );
    expect(parseBenchArgs(['--no-mixed']).mixedWriteRate).toBe(0);
    expect(() => parseBenchArgs(['--mixed', '--no-mixed'])).toThrow(/contradict/);
    expect(() => parseBenchArgs(['--mixed', '--mixed-write-rate', '0'])).toThrow(/needs a write load/);
  });

  it('rejects bad values with a one-line fix', () => {
    expect(() => parseBenchArgs(['--mixed-write-rate', 'lots'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--sweep-p99-ms', '0'])).toThrow(/--sweep-p99-ms must be a number > 0/);
    expect(() => parseBenchArgs(['--sweep', '--no-sweep'])).toThrow(/contradict/);
  });
});
