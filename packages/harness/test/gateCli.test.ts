import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GATE_FLAGS } from '../src/gate/args.js';
import type { Waiver } from '../src/gate/waivers.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { CLEAN, card, waiver } from './helpers/gateCards.js';
import { tempDir } from './helpers/tempDir.js';

// ---- the CLI, as the workflow runs it ----

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

function gateCli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/gate/cli.ts', ...args], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    env: { ...process.env, ARTIFACT_URL: '', ...env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function workspace(runs: Scorecard[], waivers: Waiver[] = []) {
  const dir = tempDir('gate-cli-');
  for (const c of runs) {
    mkdirSync(join(dir, 'out', c.runId), { recursive: true });
    writeFileSync(join(dir, 'out', c.runId, 'scorecard.json'), JSON.stringify(c));
  }
  writeFileSync(join(dir, 'waivers.json'), JSON.stringify({ waivers }));
  return dir;
}

describe('gate CLI', () => {
  it('judges the newest run of an --out folder, prints the summary, appends --summary, writes --comment', () => {
    const dir = workspace([
      card({ rows: { ...CLEAN }, runId: '20261122T010000Z-aaaaaaa' }),
      card({ rows: { ...CLEAN, 'query.term': 'LOSE' }, runId: '20261122T020000Z-bbbbbbb' }),
    ]);
    writeFileSync(join(dir, 'summary.md'), 'earlier step\n');
    const r = gateCli(
      [
        '--scorecard',
        join(dir, 'out'),
        '--waivers',
        join(dir, 'waivers.json'),
        '--summary',
        join(dir, 'summary.md'),
        '--comment',
        join(dir, 'c', 'comment.md'),
      ],
      { ARTIFACT_URL: 'https://github.com/o/r/actions/runs/1/artifacts/2' },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('20261122T020000Z-bbbbbbb');
    expect(r.stdout).toContain('`query.term`');
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary.startsWith('earlier step\n## ❌ everycell gate failed: LOSE (exit 1)')).toBe(true);
    const comment = readFileSync(join(dir, 'c', 'comment.md'), 'utf8');
    expect(comment).toContain('| 2 | 1 | 0 | 1 |');
    expect(comment).toContain('(https://github.com/o/r/actions/runs/1/artifacts/2)');
  });

  it('passes a waived LOSE and fails an expired one through the waivers file', () => {
    const runs = [card({ rows: { ...CLEAN, 'query.term': 'LOSE' } })];
    const ok = workspace(runs, [waiver('query.term', '2999-12-31')]);
    const passed = gateCli(['--scorecard', join(ok, 'out'), '--waivers', join(ok, 'waivers.json')]);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('### Waived rows');
    const old = workspace(runs, [waiver('query.term', '2020-01-01')]);
    const failed = gateCli(['--scorecard', join(old, 'out'), '--waivers', join(old, 'waivers.json')]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('**waiver expired** on 2020-01-01');
  });

  it('exits 3 on a coverage drop against --previous and 2 on a failed run', () => {
    const dir = workspace([
      card({
        rows: { ...CLEAN, 'query.range': 'WIN' },
        runId: '20261121T000000Z-prev000',
        createdAt: '2026-11-21T00:00:00Z',
      }),
    ]);
    mkdirSync(join(dir, 'now'));
    writeFileSync(join(dir, 'now', 'scorecard.json'), JSON.stringify(card({ rows: { ...CLEAN } })));
    const args = ['--scorecard', join(dir, 'now'), '--waivers', join(dir, 'waivers.json')];
    const dropped = gateCli([...args, '--previous', join(dir, 'out')]);
    expect(dropped.code).toBe(3);
    expect(dropped.stdout).toContain('coverage fell against 20261121T000000Z-prev000');

    writeFileSync(
      join(dir, 'failed.json'),
      JSON.stringify(card({ rows: { ...CLEAN }, status: 'failed', failure: 'candidate exited' })),
    );
    const failed = gateCli(['--scorecard', join(dir, 'failed.json'), '--waivers', join(dir, 'waivers.json')]);
    expect(failed.code).toBe(2);
    expect(failed.stdout).toContain('run failed: candidate exited');
  });

  it('prints --help from its flag table, exit statuses included, and exits 0', () => {
    const help = gateCli(['--help']);
    expect(help.code).toBe(0);
    for (const flag of GATE_FLAGS) expect(help.stdout).toContain(`--${flag.name}`);
    expect(help.stdout).toMatch(/4 regressed against the merge-base build/);
  });

  it('answers bad input with one line naming the fix and exit 2', () => {
    const dir = workspace([card({ rows: { ...CLEAN } })]);
    const noFlag = gateCli([]);
    expect(noFlag.code).toBe(2);
    expect(
      noFlag.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('gate:')),
    ).toEqual(['gate: --scorecard is required (a scorecard.json, a run folder or an --out folder)']);
    expect(gateCli(['--scorecard', join(dir, 'out'), '--frobnicate']).stderr).toContain(
      "gate: Unknown option '--frobnicate'; run with --help for the flags",
    );
    writeFileSync(join(dir, 'waivers.json'), JSON.stringify({ waivers: [{ row: 'query.term' }] }));
    const badWaivers = gateCli(['--scorecard', join(dir, 'out'), '--waivers', join(dir, 'waivers.json')]);
    expect(badWaivers.code).toBe(2);
    expect(badWaivers.stderr).toContain(
      `gate: ${join(dir, 'waivers.json')}: waivers[0].reason must be a non-empty string`,
    );
    const comment = join(dir, 'comment.md');
    const missing = gateCli(['--scorecard', join(dir, 'nothing-here'), '--comment', comment]);
    expect(missing.code).toBe(2);
    expect(readFileSync(comment, 'utf8')).toContain('**No scorecard to judge**');
  });
});
