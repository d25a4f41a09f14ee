import { describe, expect, it } from 'vitest';
import {
  engineName,
  formatBytes,
  formatCi,
  formatDate,
  formatMs,
  formatRatio,
  formatSide,
} from '../lib/format';

describe('formatSide', () => {
  it('shows p50 and p99 for latency rows', () => {
    expect(
      formatSide({ unit: 'ms' }, { supported: true, samples: 9, errors: 0, p50: 0.612, p99: 12.44 }),
    ).toBe('p50 0.612 ms · p99 12.4 ms');
  });
  it('shows docs/s for ingest rows and bytes for disk rows', () => {
    expect(formatSide({ unit: 'docs/s' }, { supported: true, samples: 5, errors: 0, value: 41200 })).toBe(
      '41,200 docs/s',
    );
    expect(
      formatSide({ unit: 'bytes' }, { supported: true, samples: 1, errors: 0, value: 3 * 1024 ** 2 }),
    ).toBe('3.0 MiB');
  });
  it('says unsupported rather than showing numbers the engine did not produce', () => {
    expect(formatSide({ unit: 'ms' }, { supported: false, samples: 0, errors: 0, p50: 1 })).toBe(
      'unsupported',
    );
  });
});

describe('numbers', () => {
  it('formats ratios, intervals and latencies', () => {
    expect(formatRatio(2.3333)).toBe('2.33×');
    expect(formatRatio(undefined)).toBe('—');
    expect(formatRatio(Number.NaN)).toBe('—');
    expect(formatCi([0.912, 1.05])).toBe('0.91–1.05');
    expect(formatCi(undefined)).toBe('—');
    expect(formatMs(1234.5)).toBe('1,235 ms');
    expect(formatBytes(512)).toBe('512 B');
  });
  it('formats dates in UTC whatever the machine zone', () => {
    expect(formatDate('2026-11-21T23:59:00.000Z')).toBe('21 Nov 2026, 23:59 UTC');
    expect(formatDate('not a date')).toBe('not a date');
  });
});

describe('engineName', () => {
  it('does not repeat a version the product already names', () => {
    expect(engineName({ product: 'OpenSearch 2.19.1', version: '2.19.1' })).toBe('OpenSearch 2.19.1');
    expect(engineName({ product: 'OpenSearch', version: '2.19.1' })).toBe('OpenSearch 2.19.1');
  });
});

describe('productName', () => {
  it('drops the version and build notes a product name carries', async () => {
    const { productName } = await import('../lib/format');
    expect(productName({ product: 'everycell 0.1.0 (tantivy-0.27, ES API 8.15.0)', version: '0.1.0' })).toBe(
      'everycell',
    );
    expect(productName({ product: 'everycell', version: '0.2.0' })).toBe('everycell');
    expect(productName({ product: 'OpenSearch 2.19.1', version: '2.19.1' })).toBe('OpenSearch');
  });
});
