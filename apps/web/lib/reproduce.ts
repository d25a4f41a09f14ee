/**
 * "How to reproduce this run": the bench command line rebuilt from a run's manifest settings.
 * The flag table mirrors the harness's CLI (packages/harness/src/cli/args.ts); settings without a
 * flag are fixed by the code at the run's revision, which is why the command checks it out first.
 */
import type { Manifest } from './definitions';

/** Manifest setting -> bench flag, in the order `--help` lists them. */
export const FLAG_FOR_SETTING: readonly (readonly [setting: string, flag: string])[] = [
  ['docs', '--docs'],
  ['rate', '--rate'],
  ['iterations', '--iterations'],
  ['warmup', '--warmup'],
  ['rounds', '--rounds'],
  ['families', '--families'],
  ['seed', '--seed'],
  ['connections', '--connections'],
  ['timeoutMs', '--timeout-ms'],
  ['bulkSize', '--bulk-size'],
  ['tieMargin', '--margin'],
  ['maxSendLagP99Ms', '--max-send-lag-ms'],
];

export interface Reproduction {
  /** Shell lines, in order. */
  lines: string[];
  /** Settings the manifest records that no flag sets (the code at the revision fixes them). */
  fixedSettings: string[];
  /** Anything that stops the command from reproducing the run exactly. */
  caveats: string[];
}

/** Quotes a value for a POSIX shell only when it needs it ('*' and spaces do). */
export function shellQuote(value: string): string {
  return /^[\w.,:/=+@%-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function settingText(value: Manifest['settings'][string]): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

export function reproduceRun(manifest: Manifest): Reproduction {
  const settings: Manifest['settings'] = {
    // The corpus block names size and seed even when an older manifest's settings do not.
    docs: manifest.corpus.docs,
    seed: manifest.corpus.seed,
    ...manifest.settings,
  };
  const flags = FLAG_FOR_SETTING.filter(([setting]) => settings[setting] !== undefined).map(
    ([setting, flag]) =>
      `${flag} ${shellQuote(settingText(settings[setting] as Manifest['settings'][string]))}`,
  );
  const flagged = new Set(FLAG_FOR_SETTING.map(([setting]) => setting));
  const fixedSettings = Object.keys(manifest.settings).filter((key) => !flagged.has(key));
  const caveats: string[] = [];
  const lines: string[] = [];
  if (/^[0-9a-f]{7,40}$/.test(manifest.gitRevision)) {
    lines.push(`git checkout ${manifest.gitRevision}`);
  } else {
    caveats.push(
      `The run recorded no commit (git revision "${manifest.gitRevision}"), so the code it ran cannot be checked out.`,
    );
  }
  if (manifest.settings.gitDirty === true) {
    caveats.push(
      'The working tree had uncommitted changes when the run was made: the commit alone is not that code.',
    );
  }
  for (const engine of [manifest.candidate, manifest.baseline]) {
    if (!engine.startedByHarness) {
      caveats.push(
        `The ${engine.role} was an already running server (${engine.product} ${engine.version}); start one and add --${engine.role}-url <its URL>.`,
      );
    }
  }
  const missing = FLAG_FOR_SETTING.filter(([setting]) => settings[setting] === undefined).map(
    ([, flag]) => flag,
  );
  if (missing.length > 0) {
    caveats.push(
      `The manifest does not record ${missing.join(', ')}: the command uses the harness defaults for them.`,
    );
  }
  lines.push(
    flags.length > 0
      ? ['npm install && npm run bench --', ...flags].join(' \\\n    ')
      : 'npm install && npm run bench',
  );
  return { lines, fixedSettings, caveats };
}
