/**
 * What the site publishes of a run, cleaned of the build machine: settings whose value is an
 * absolute path (older harnesses recorded `engineLogs`, the folder of the engines' logs) are left
 * out of every page and download, and such paths in SCORECARD.md are replaced. Also the run's rows
 * as CSV. Pure; unit-tested.
 */
import type { Manifest, RowResult, Scorecard } from './definitions';
import { scoredValue } from './prepare';

type Settings = Manifest['settings'];
type SettingValue = Settings[string];

/** "/home/runner/x", "~/x", "C:\\x": a place on the machine that made the run. */
export function isMachinePath(value: string): boolean {
  return /^(\/|~\/|[A-Za-z]:[\\/])/.test(value.trim());
}

function hasMachinePath(value: SettingValue): boolean {
  return Array.isArray(value) ? value.some(isMachinePath) : typeof value === 'string' && isMachinePath(value);
}

/** The settings without those whose value is a path on the build machine. */
export function publishedSettings(settings: Settings): Settings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => !hasMachinePath(value)));
}

/** Names of the settings left out because they held a build machine's path. */
export function hiddenSettings(settings: Settings): string[] {
  return Object.entries(settings)
    .filter(([, value]) => hasMachinePath(value))
    .map(([key]) => key);
}

/** The scorecard as the site publishes it: the file's own content less the build machine's paths. */
export function publishedScorecard(card: Scorecard): Scorecard {
  return {
    ...card,
    manifest: { ...card.manifest, settings: publishedSettings(card.manifest.settings) },
  };
}

const COMMON_ROOTS = /(?<![\w.:/-])\/(?:home|root|work|tmp|Users|var|opt|mnt|srv|runner)\/[^\s`"'|)<>]*/g;

/** SCORECARD.md with every absolute path of the build machine replaced by words. */
export function publishedMarkdown(text: string, card: Scorecard): string {
  let out = text;
  for (const value of Object.values(card.manifest.settings)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string' && isMachinePath(item))
        out = out.replaceAll(item, '(a folder on the build machine)');
    }
  }
  return out.replace(COMMON_ROOTS, '(a folder on the build machine)');
}

const CSV_COLUMNS = [
  'id',
  'group',
  'family',
  'title',
  'unit',
  'better_is',
  'verdict',
  'ratio',
  'ci_low',
  'ci_high',
  'ratio_meaning',
  'candidate_value',
  'baseline_value',
  'candidate_p50_ms',
  'candidate_p99_ms',
  'baseline_p50_ms',
  'baseline_p99_ms',
  'candidate_cpu_ms_per_request',
  'baseline_cpu_ms_per_request',
  'cpu_ratio',
  'reason',
] as const;

/** One CSV field: quoted when it needs it; text that a spreadsheet would run as a formula is prefixed with '. */
export function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The run's rows, one line each; ratios in the site's one direction (above 1: candidate better). */
export function rowsCsv(card: Scorecard, meaning: (row: RowResult) => string): string {
  const lines = card.rows.map((row) =>
    [
      row.id,
      row.group,
      row.family,
      row.title,
      row.unit,
      row.betterIs,
      row.verdict,
      row.ratio,
      row.ci?.[0],
      row.ci?.[1],
      meaning(row),
      scoredValue(row, 'candidate'),
      scoredValue(row, 'baseline'),
      row.candidate.p50,
      row.candidate.p99,
      row.baseline.p50,
      row.baseline.p99,
      row.candidate.cpuMsPerRequest,
      row.baseline.cpuMsPerRequest,
      row.cpuRatio,
      row.reason,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\n')}\n`;
}
