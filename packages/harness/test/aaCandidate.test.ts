import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_SERVER } from '../src/engines/candidate.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { runCli } from './helpers/runCli.js';

/**
 * The candidate against a second candidate process (no JVM: quick): the twin takes the baseline's
 * place, serves an exact copy of the candidate's index from the first fork on (two loads of the
 * same documents leave different segments), and every engine is restarted per fork.
 */
const built = existsSync(CANDIDATE_SERVER);

describe.skipIf(!built)('A/A with two candidate processes (real engine)', () => {
  let out: string;
  let stdout = '';
  let code: number | null = null;
  let card: Scorecard;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'everycell-aa-'));
    const r = await runCli(
      [
        '--aa',
        'candidate',
        '--docs',
        '3000',
        '--families',
        'query.term,metric.avg',
        '--forks',
        '3',
        '--max-forks',
        '3',
        '--iterations',
        '120',
        '--prewarm',
        '20',
        '--no-mixed',
        '--no-sweep',
        '--out',
        out,
      ],
      180_000,
    );
    ({ code, stdout } = r);
    const runId = (await readdir(out)).find((f) => /^\d{8}T\d{6}Z-/.test(f)) as string;
    card = JSON.parse(await readFile(join(out, runId, 'scorecard.json'), 'utf8')) as Scorecard;
  }, 200_000);

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('runs the twin as the baseline on a copy of the candidate index', () => {
    expect(code, stdout).not.toBe(2);
    expect(card.manifest.baseline.product).toMatch(/^everycell .* \(A\/A twin\)$/);
    expect(stdout).toContain(
      "fork 1: the baseline serves a copy of the candidate's index (the same segments)",
    );
    expect(stdout.match(/fork \d: baseline restarted on its data/g)).toHaveLength(3);
  });

  it('measures both processes in every fork, with CPU per request on both sides', () => {
    for (const id of ['query.term', 'metric.avg']) {
      const row = card.rows.find((r) => r.id === id);
      expect(row?.forks, id).toBe(3);
      expect(row?.candidate.cpuMsPerRequest, id).toBeGreaterThan(0);
      expect(row?.baseline.cpuMsPerRequest, id).toBeGreaterThan(0);
      // The same build on the same segments: results agree exactly.
      expect(row?.mismatch, id).toBeUndefined();
    }
    expect(card.manifest.settings.aaResult).toMatch(/^A\/A \(everycell .* against itself\)/);
  });
});
