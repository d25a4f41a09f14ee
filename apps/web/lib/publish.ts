/**
 * What the site publishes of a run, cleaned of the build machine: a setting whose value is an
 * absolute path (older harnesses recorded `engineLogs` as the absolute folder of the engines'
 * logs, "/home/<user>/<checkout>/.runs/<run-id>") is published relative to the checkout
 * (".runs/<run-id>", what the harness writes today) or, when it names no such folder, as words;
 * the same in SCORECARD.md. Also the run's rows as CSV. Pure; unit-tested.
 */
import type { Manifest, RowResult, Scorecard } from './definitions';
import { scoredValue } from './prepare';

type Settings = Manifest['settings'];
type SettingValue = Settings[string];

/** "/home/runner/x", "~/x", "C:\\x": a place on the machine that made the run. */
export function isMachinePath(value: string): boolean {
  return /^(\/|~\/|[A-Za-z]:[\\/])/.test(value.trim());
}

export const MACHINE_FOLDER = '(a folder on the build machine)';

/** A path of the build machine as published: from `.runs/` on when it is a run's log folder, else words. */
export function publishedPath(path: string): string {
  const at = path.replaceAll('\\', '/').lastIndexOf('/.runs/');
  return at === -1 ? MACHINE_FOLDER : path.replaceAll('\\', '/').slice(at + 1);
}

function publishedValue(value: SettingValue): SettingValue {
  if (Array.isArray(value)) return value.map((item) => (isMachinePath(item) ? publishedPath(item) : item));
  return typeof value === 'string' && isMachinePath(value) ? publishedPath(value) : value;
}

function hasMachinePath(value: SettingValue): boolean {
  return Array.isArray(value) ? value.some(isMachinePath) : typeof value === 'string' && isMachinePath(value);
}

/** The settings with every path of the build machine published relative to the checkout, or as words. */
export function publishedSettings(settings: Settings): Settings {
  return Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, publishedValue(value)]));
}

/** The settings without those that held a machine path: what the reproduce command is built from. */
export function portableSettings(settings: Settings): Settings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => !hasMachinePath(value)));
}

/** Names of the settings whose value was a build machine's path (published in another form). */
export function hiddenSettings(settings: Settings): string[] {
  return Object.entries(settings)
    .filter(([, value]) => hasMachinePath(value))
    .map(([key]) => key);
}

/** The scorecard as the site publishes it: the file's own content, its machine paths published relative. */
export function publishedScorecard(card: Scorecard): Scorecard {
  return {
    ...card,
    manifest: { ...card.manifest, settings: publishedSettings(card.manifest.settings) },
  };
}

const COMMON_ROOTS = /(?<![\w.:/-])\/(?:home|root|work|tmp|Users|var|opt|mnt|srv|runner)\/[^\s`"'|)<>]*/g;

/** SCORECARD.md with every absolute path of the build machine published relative, or as words. */
export function publishedMarkdown(text: string, card: Scorecard): string {
  let out = text;
  for (const value of Object.values(card.manifest.settings)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string' && isMachinePath(item)) out = out.replaceAll(item, publishedPath(item));
    }
  }
  return out.replace(COMMON_ROOTS, (path) => publishedPath(path));
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
