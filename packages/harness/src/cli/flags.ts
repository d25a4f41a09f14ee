import { parseArgs } from 'node:util';

/** A bad flag: the CLI prints the message (which names the fix) and exits 2. */
export class UsageError extends Error {}

/**
 * One command-line flag, declared once: `node:util` parseArgs reads it, `--help` prints it,
 * and (for flags that set a recorded setting) the site's reproduce command writes it back.
 */
export interface Flag {
  /** Without the dashes, e.g. "docs" for --docs. */
  name: string;
  /** Placeholder in --help for a flag that takes a value, e.g. "N"; absent for a switch. */
  value?: string;
  /** Help text; continuation lines are indented under it. */
  help: string;
  short?: string;
  /**
   * The recorded manifest setting this flag sets, and how a recorded value becomes this flag's
   * arguments again (absent `toArgs`: `--name value`, or `--name` for `true`). Returns
   * undefined when the value is the default (nothing to pass).
   */
  setting?: string;
  toArgs?: (value: unknown) => string[] | undefined;
}

export type FlagValues = Record<string, string | boolean | undefined>;

/** parseArgs over a table; an unknown or malformed flag is a UsageError naming --help. */
export function parseFlags(table: readonly Flag[], argv: readonly string[]): FlagValues {
  const options = Object.fromEntries(
    table.map((f) => [
      f.name,
      {
        type: f.value === undefined ? ('boolean' as const) : ('string' as const),
        ...(f.short ? { short: f.short } : {}),
      },
    ]),
  );
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options })
      .values as FlagValues;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}; run with --help for the flags`);
  }
}

/** The flags part of --help, aligned: "  --docs N[,N...]     corpus size ...". */
export function renderFlagHelp(table: readonly Flag[]): string {
  const heads = table.map((f) => `  --${f.name}${f.value ? ` ${f.value}` : ''}`);
  const width = Math.min(22, Math.max(...heads.map((h) => h.length)) + 2);
  return table
    .map((f, i) => {
      const head = heads[i] as string;
      const [first, ...more] = f.help.split('\n');
      const pad = head.length + 1 > width ? `${head} ` : head.padEnd(width);
      return [pad + first, ...more.map((line) => `${' '.repeat(width)}${line}`)].join('\n');
    })
    .join('\n');
}

/**
 * The flags that recreate recorded settings: every flag with a `setting` whose recorded value
 * differs from what the flag's default would give (toArgs decides). Unrecorded settings are
 * left out; `caveats` says what a flag cannot bring back.
 */
export function flagsForSettings(table: readonly Flag[], settings: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const flag of table) {
    if (flag.setting === undefined || !(flag.setting in settings)) continue;
    const value = settings[flag.setting];
    const out = flag.toArgs
      ? flag.toArgs(value)
      : value === true
        ? [`--${flag.name}`]
        : value === false
          ? undefined
          : [`--${flag.name}`, String(value)];
    if (out) args.push(...out);
  }
  return args;
}

/** A shell word: quoted when it holds anything but safe characters. */
export function shellWord(word: string): string {
  return /^[\w./:,=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function parseCount(flag: string, raw: string, min: number): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(raw.trim());
  const n = m
    ? Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1)
    : Number.NaN;
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(
      `--${flag} must be a whole number >= ${min}, got "${raw}" (e.g. --${flag} ${min === 0 ? 0 : Math.max(min, 10)})`,
    );
  return n;
}

export function parsePositive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} must be a number > 0, got "${raw}"`);
  return n;
}

export function parseUrl(flag: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url.origin;
  } catch {
    throw new UsageError(`--${flag} must be an http URL like http://127.0.0.1:9200, got "${raw}"`);
  }
}
