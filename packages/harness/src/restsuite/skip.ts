/**
 * `skip` sections: a version range (both engines are judged as Elasticsearch 7.10.2, the
 * release of the suite and the one OpenSearch forked from) or runner features this runner
 * lacks. Node selectors use the same ranges.
 */
import type { SkipStep } from './testFile.js';

/** The version both engines are taken to be when a test names versions. */
export const JUDGED_AS = '7.10.2';

/**
 * Features this runner implements (the suite's README lists them). Not here: `yaml` (YAML
 * request and response bodies), `xpack`, `catch_unauthorized` and JDK-specific ones.
 */
export const SUPPORTED_FEATURES = new Set([
  'allowed_warnings',
  'arbitrary_key',
  'contains',
  'default_shards',
  'embedded_stash_key',
  'headers',
  'no_xpack',
  'node_selector',
  'regex',
  'stash_in_key',
  'stash_in_path',
  'stash_path_replace',
  'transform_and_set',
  'warnings',
]);

type Version = [number, number, number];

function parseVersion(text: string): Version | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function cmp(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `version` lies in the suite's range text ("all", "7.0.0 - 7.9.99", " - 6.99.99", "a - b, c - d"). */
export function inRange(range: string, version = JUDGED_AS): boolean {
  if (range.trim() === 'all') return true;
  const v = parseVersion(version);
  if (!v) return false;
  return range.split(',').some((one) => {
    const [low = '', high = ''] = one.split(' - ').map((s) => s.trim());
    const lo = low === '' ? undefined : parseVersion(low);
    const hi = high === '' ? undefined : parseVersion(high);
    return (!lo || cmp(v, lo) >= 0) && (!hi || cmp(v, hi) <= 0);
  });
}

/** Why a test (or file, for a setup's skip) is skipped, or undefined when it runs. */
export function skipReason(skip: SkipStep): string | undefined {
  if (skip.version !== undefined && inRange(skip.version))
    return `skipped on ${JUDGED_AS} (${skip.version}): ${skip.reason ?? 'no reason given'}`;
  const missing = skip.features.filter((f) => !SUPPORTED_FEATURES.has(f));
  if (missing.length > 0) return `needs runner features ${missing.join(', ')}`;
  return undefined;
}
