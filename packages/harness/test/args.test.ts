import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../src/cli/args.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';

describe('bench flags', () => {
  it('defaults and suffixes', () => {
    expect(parseBenchArgs([]).settings).toEqual(DEFAULT_SETTINGS);
    expect(parseBenchArgs(['--docs', '100k']).settings.docs).toBe(100_000);
    expect(parseBenchArgs(['--docs', '1.5m']).settings.docs).toBe(1_500_000);
    expect(parseBenchArgs(['--docs', '20000', '--rate', '50', '--rounds', '4']).settings).toMatchObject({
      docs: 20000,
      rate: 50,
      rounds: 4,
    });
    const urls = parseBenchArgs([
      '--candidate-url',
      'http://127.0.0.1:9200/',
      '--baseline-url',
      'http://localhost:9300',
    ]);
    expect(urls.candidateUrl).toBe('http://127.0.0.1:9200');
    expect(urls.baselineUrl).toBe('http://localhost:9300');
  });

  it('rejects bad flags with a message naming the fix', () => {
    const bad = (argv: string[], re: RegExp) => {
      expect(() => parseBenchArgs(argv)).toThrow(UsageError);
      expect(() => parseBenchArgs(argv)).toThrow(re);
    };
    bad(['--docs', 'lots'], /--docs must be a whole number/);
    bad(['--corpus', 'enron'], /--corpus enron is not a corpus: use one of llm-telemetry, wordnet/);
    // A real corpus smaller than --docs runs at its real size, and the CLI says so.
    const capped = parseBenchArgs(['--corpus', 'wordnet', '--docs', '200k']);
    expect(capped.settings.docs).toBe(117_791);
    expect(capped.notes).toEqual([
      'the wordnet corpus has 117,791 documents: running at its real size instead of --docs 200000',
    ]);
    bad(
      ['--corpus', 'wordnet', '--families', 'query.term'],
      /matches no row of the wordnet corpus; ids are text.match/,
    );
    bad(['--rate', '0'], /--rate must be a number > 0/);
    bad(['--rate=-3'], /--rate must be a number > 0/);
    bad(['--families', 'nope.*'], /matches no row of the llm-telemetry corpus; ids are .*query.term/);
    bad(['--candidate-url', 'localhost'], /http URL like/);
    bad(['--speed', '3'], /--help/);
    bad(['--iterations', '5', '--forks', '3', '--rounds', '2'], /at least --forks x --rounds \(6\)/);
    bad(['--margin', '2'], /fraction/);
    bad(['--clients', '1,x'], /--clients must be a comma-separated list/);
    bad(['--clients', '0'], /e.g. --clients 1,8/);
    expect(parseBenchArgs(['--clients', ' 8, 1 ']).settings.clients).toBe('8,1');
    bad(['--forks', '4', '--max-forks', '3'], /--max-forks \(3\) must be at least --forks \(4\)/);
    expect(parseBenchArgs(['--forks', '4']).settings.maxForks).toBe(6);
    expect(parseBenchArgs(['--forks', '4', '--max-forks', '4']).settings.maxForks).toBe(4);
    expect(parseBenchArgs([]).settings).toMatchObject({ forks: 5, maxForks: 7, rounds: 2 });
  });
});

describe('corpus and kNN flags', () => {
  it('--corpus wordnet selects the real text corpus; --knn adds the vector rows', () => {
    const { settings } = parseBenchArgs([
      '--corpus',
      'wordnet',
      '--docs',
      '50k',
      '--knn',
      '--knn-docs',
      '20k',
    ]);
    expect(settings).toMatchObject({ corpus: 'wordnet', docs: 50_000, knn: true, knnDocs: 20_000 });
    expect(parseBenchArgs([]).settings).toMatchObject({ corpus: 'llm-telemetry', knn: false });
  });
});
