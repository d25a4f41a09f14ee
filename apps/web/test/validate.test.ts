import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseScorecard, ScorecardFileError } from '@everycell/harness/validate';
import { parseWaivers } from '@everycell/harness/waivers';
import { afterEach, describe, expect, it } from 'vitest';
import { readScorecards } from '../lib/data';
import type { Scorecard } from '../lib/definitions';
import { fixturesDir, loadFixtures } from './load-fixtures';

const FILE = 'scorecards/run-x/scorecard.json';

/** A deep copy of the newest fixture, to break one field at a time. */
function card(): Scorecard {
  const newest = loadFixtures()
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .at(-1);
  return structuredClone(newest) as Scorecard;
}

function messageOf(input: unknown, folder?: string): string {
  try {
    parseScorecard(FILE, input, folder);
  } catch (error) {
    expect(error).toBeInstanceOf(ScorecardFileError);
    return (error as Error).message;
  }
  throw new Error('expected the scorecard to be rejected');
}

describe('validateScorecard: the shape', () => {
  it('accepts every fixture and every committed real scorecard (older ones lack the newer fields)', () => {
    for (const fixture of loadFixtures()) expect(parseScorecard(FILE, fixture)).toBe(fixture);
    const real = resolve(fixturesDir, '../../../../scorecards');
    // Run folders, as the site reads them (scorecards/ci and scorecards/wordnet hold their own runs).
    const runs = readdirSync(real, { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && existsSync(join(real, entry.name, 'scorecard.json')),
    );
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const parsed = JSON.parse(readFileSync(join(real, run.name, 'scorecard.json'), 'utf8'));
      expect(parseScorecard(FILE, parsed, run.name).runId).toBe(run.name);
    }
  });

  it('names the field and the value of a wrong type', () => {
    const bad = card() as unknown as { rows: Record<string, unknown>[] };
    (bad.rows[3] as Record<string, unknown>).ratio = 'fast';
    expect(messageOf(bad)).toBe(`${FILE}: rows[3].ratio: expected a number, got "fast"`);
  });

  it('takes null latencies only on a rate the engine was not offered (skipped past its knee)', () => {
    const skipped = card() as unknown as { sweeps: { points: { baseline: Record<string, unknown> }[] }[] };
    const point = skipped.sweeps.at(0)?.points.at(-1);
    if (!point) throw new Error('the newest fixture has a sweep');
    const side = point.baseline;
    Object.assign(side, { achievedRate: 0, p50: null, p99: null, p999: null, skipped: true });
    expect(() => parseScorecard(FILE, skipped)).not.toThrow();
    delete side.skipped;
    expect(messageOf(skipped)).toMatch(/p50: p50 and p99 are numbers on a rate the engine was offered/);
  });

  it('names a missing field', () => {
    const bad = card() as unknown as { rows: Record<string, unknown>[] };
    delete (bad.rows[1] as Record<string, unknown>).title;
    expect(messageOf(bad)).toBe(
      `${FILE}: rows[1].title: expected a string, got nothing (the field is missing)`,
    );
    const noSide = card() as unknown as { rows: Record<string, unknown>[] };
    delete (noSide.rows[0] as Record<string, unknown>).baseline;
    expect(messageOf(noSide)).toBe(
      `${FILE}: rows[0].baseline: expected an object, got nothing (the field is missing)`,
    );
  });

  it('lists the verdicts a verdict must be', () => {
    const bad = card() as unknown as { rows: Record<string, unknown>[] };
    (bad.rows[2] as Record<string, unknown>).verdict = 'MAYBE';
    expect(messageOf(bad)).toBe(
      `${FILE}: rows[2].verdict: expected "WIN", "LOSE", "TIE" or "N/A", got "MAYBE"`,
    );
  });

  it('checks nested drill-down fields and counts the other problems', () => {
    const bad = card();
    const side = bad.rows.find((row) => row.candidate.ecdf)?.candidate;
    if (!side?.ecdf) throw new Error('fixtures lack an ECDF');
    side.ecdf.ms.pop();
    const index = bad.rows.findIndex((row) => row.candidate === side);
    expect(messageOf(bad)).toBe(
      `${FILE}: rows[${index}].candidate.ecdf: q and ms must have the same length, got an object`,
    );
    const twice = card() as unknown as Record<string, unknown>;
    twice.durationMs = 'long';
    twice.status = 'done';
    // Every problem, one line each, not only the first.
    expect(messageOf(twice)).toBe(
      [
        `${FILE}: status: expected "complete", "partial" or "failed", got "done"`,
        `${FILE}: durationMs: expected a number, got "long"`,
      ].join('\n'),
    );
  });

  it('refuses a diff path that leaves the run folder', () => {
    const bad = card();
    const row = bad.rows.find((r) => r.diffPath) as Scorecard['rows'][number];
    row.diffPath = '../../../etc/passwd';
    const index = bad.rows.indexOf(row);
    expect(messageOf(bad)).toBe(
      `${FILE}: rows[${index}].diffPath: expected a path inside the run folder (no leading /, no .. or . segments), got "../../../etc/passwd"`,
    );
  });

  it('reads schema 1 and 2, and says which side to update for another version', () => {
    const v2 = { ...card(), schemaVersion: 2 };
    expect(parseScorecard(FILE, v2)).toBe(v2);
    expect(messageOf({ ...card(), schemaVersion: 3 })).toBe(
      `${FILE}: schemaVersion: version 3 is not one this reader knows (1 or 2): update @everycell/harness/validate`,
    );
    expect(messageOf([])).toBe(`${FILE}: (top level): expected an object, got a list of 0`);
  });
});

describe('validateScorecard: what the shape cannot say', () => {
  it('rejects counts that disagree with the rows', () => {
    const bad = card();
    bad.counts.WIN += 1;
    expect(messageOf(bad)).toBe(
      `${FILE}: counts.WIN: ${bad.counts.WIN} does not match the ${bad.counts.WIN - 1} WIN rows in the file`,
    );
  });

  it('rejects a repeated row id and a run id that is not its folder', () => {
    const bad = card();
    bad.rows.push(structuredClone(bad.rows[0]) as Scorecard['rows'][number]);
    bad.counts[bad.rows[0]?.verdict ?? 'WIN'] += 1;
    expect(messageOf(bad)).toBe(
      `${FILE}: rows[${bad.rows.length - 1}].id: "${bad.rows[0]?.id}" repeats rows[0].id`,
    );
    const good = card();
    expect(messageOf(good, 'another-folder')).toBe(
      `${FILE}: runId: "${good.runId}" is not the name of its folder "another-folder"`,
    );
  });
});

describe('the site build reads only valid files', () => {
  let dir: string | undefined;
  afterEach(() => {
    delete process.env.EVERYCELL_SCORECARDS;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function folderWith(contents: string): string {
    dir = mkdtempSync(join(tmpdir(), 'everycell-web-invalid-'));
    const run = card().runId;
    cpSync(join(fixturesDir, run), join(dir, run), { recursive: true });
    writeFileSync(join(dir, run, 'scorecard.json'), contents);
    process.env.EVERYCELL_SCORECARDS = dir;
    return `${basename(dir)}/${run}/scorecard.json`;
  }

  it('stops on invalid JSON, naming the file', () => {
    const shown = folderWith('{"schemaVersion": 1, "rows": [');
    let reason = '';
    try {
      JSON.parse('{"schemaVersion": 1, "rows": [');
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(() => readScorecards()).toThrow(
      `${shown}: not valid JSON (${reason}): re-run the benchmark or delete the run folder`,
    );
  });

  it('stops on a hand-edited field, naming the file and the field', () => {
    const edited = card() as unknown as { rows: Record<string, unknown>[] };
    (edited.rows[3] as Record<string, unknown>).ratio = 'fast';
    const shown = folderWith(JSON.stringify(edited));
    expect(() => readScorecards()).toThrow(`${shown}: rows[3].ratio: expected a number, got "fast"`);
  });
});

describe('parseWaivers', () => {
  it('reads the fixture waivers and names a bad field', () => {
    const raw = JSON.parse(readFileSync(join(fixturesDir, 'waivers.json'), 'utf8'));
    expect(parseWaivers('waivers.json', raw)).toHaveLength(1);
    expect(() =>
      parseWaivers('waivers.json', {
        waivers: [{ row: 'query.term', reason: 'x', who: 'y', expires: '2026-02-30' }],
      }),
    ).toThrow('waivers.json: waivers[0].expires must be a date YYYY-MM-DD, got "2026-02-30"');
  });
});
