import { readFileSync } from 'node:fs';

/**
 * A waiver lets one known LOSE row through the gate until a date, with a reason and an owner,
 * so a deliberate trade-off is visible in every PR instead of silently accepted. It is valid
 * through its `expires` day (UTC) and fails the gate like the LOSE itself from the next day.
 */
export interface Waiver {
  /** A row id from the scorecard, e.g. "query.term". */
  row: string;
  /**
   * What it lets through: a LOSE against the baseline ("lose", the default), a regression
   * against the merge-base build ("regression": a deliberate slowdown, e.g. a correctness fix;
   * the row "overall" covers the read rows' regression taken together), or a row whose counted
   * instructions per request grew past the count check's threshold ("count": work added on
   * purpose, e.g. a check every request must now make).
   */
  kind: WaiverKind;
  reason: string;
  who: string;
  /** Last day (UTC) the waiver holds, YYYY-MM-DD. */
  expires: string;
}

export type WaiverKind = 'lose' | 'regression' | 'count';
export const WAIVER_KINDS: readonly WaiverKind[] = ['lose', 'regression', 'count'];

/** The waivers file is wrong: the message names the file and the field to fix. */
export class WaiverFileError extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (rejects 2026-02-30). */
export function isIsoDay(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Expired once today (UTC, YYYY-MM-DD) is after the last valid day; ISO days compare as strings. */
export function isExpired(waiver: Waiver, today: string): boolean {
  return today > waiver.expires;
}

function nonEmptyString(file: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new WaiverFileError(`${file}: ${field} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

/** Validate the parsed contents of a waivers file; `file` only names it in errors. */
export function parseWaivers(file: string, raw: unknown): Waiver[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new WaiverFileError(`${file}: must be an object like {"waivers": []}`);
  // "$comment" documents the shape inside the file itself (JSON has no comments).
  const extra = Object.keys(raw).find((k) => k !== 'waivers' && k !== '$comment');
  if (extra !== undefined)
    throw new WaiverFileError(`${file}: "${extra}" is not a known key (keys: waivers, $comment)`);
  const list = (raw as { waivers?: unknown }).waivers;
  if (!Array.isArray(list))
    throw new WaiverFileError(`${file}: "waivers" must be an array (use {"waivers": []} for none)`);
  const seen = new Map<string, number>();
  return list.map((entry: unknown, i): Waiver => {
    const at = `waivers[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new WaiverFileError(`${file}: ${at} must be an object with row, reason, who, expires`);
    const e = entry as Record<string, unknown>;
    const unknownKey = Object.keys(e).find((k) => !['row', 'kind', 'reason', 'who', 'expires'].includes(k));
    if (unknownKey !== undefined)
      throw new WaiverFileError(
        `${file}: ${at}.${unknownKey} is not a waiver field (fields: row, kind, reason, who, expires)`,
      );
    const kind = e.kind === undefined ? 'lose' : e.kind;
    if (!WAIVER_KINDS.includes(kind as WaiverKind))
      throw new WaiverFileError(
        `${file}: ${at}.kind must be one of ${WAIVER_KINDS.join(', ')} (default lose), got ${JSON.stringify(e.kind)}`,
      );
    const row = nonEmptyString(file, `${at}.row`, e.row);
    const reason = nonEmptyString(file, `${at}.reason`, e.reason);
    const who = nonEmptyString(file, `${at}.who`, e.who);
    const expires = nonEmptyString(file, `${at}.expires`, e.expires);
    if (!isIsoDay(expires))
      throw new WaiverFileError(`${file}: ${at}.expires must be a date YYYY-MM-DD, got "${expires}"`);
    const key = `${kind} ${row}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new WaiverFileError(
        `${file}: ${at}.row "${row}" already has a ${kind} waiver, waivers[${first}]: keep one per row and kind`,
      );
    seen.set(key, i);
    return { row, kind: kind as WaiverKind, reason, who, expires };
  });
}

/** Read and validate a waivers file. */
export function loadWaivers(file: string): Waiver[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new WaiverFileError(`${file}: cannot read the waivers file (create it with {"waivers": []})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new WaiverFileError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  return parseWaivers(file, raw);
}
