import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from './load-fixtures';

describe('the site build', () => {
  it('checks every scorecard first and lists every problem, file and field, before compiling', () => {
    const dir = mkdtempSync(join(tmpdir(), 'everycell-web-build-'));
    try {
      cpSync(join(fixturesDir, '2026-11-18T02-10-04Z-3f9c2ab'), join(dir, 'run-a'), { recursive: true });
      cpSync(join(fixturesDir, '2026-11-20T02-12-41Z-8d01e77'), join(dir, '2026-11-20T02-12-41Z-8d01e77'), {
        recursive: true,
      });
      // run-a: a good file in the wrong folder; run-b: a schema-2 file missing most fields.
      cpSync(join(dir, 'run-a'), join(dir, 'run-b'), { recursive: true });
      writeFileSync(
        join(dir, 'run-b', 'scorecard.json'),
        JSON.stringify({ schemaVersion: 2, runId: 'run-b' }),
      );
      const started = Date.now();
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-site.ts'], {
        cwd: join(fixturesDir, '../..'),
        env: { ...process.env, EVERYCELL_SCORECARDS: dir },
        encoding: 'utf8',
      });
      expect(result.status).toBe(2);
      const name = basename(dir);
      expect(result.stderr).toContain('nothing was built');
      expect(result.stderr).toContain(
        `${name}/run-a/scorecard.json: runId: "2026-11-18T02-10-04Z-3f9c2ab" is not the name of its folder "run-a"`,
      );
      expect(result.stderr).toContain(`${name}/run-b/scorecard.json: createdAt:`);
      expect(result.stderr).toContain(`${name}/run-b/scorecard.json: rows:`);
      // It stopped before Next compiled anything.
      expect(result.stdout).not.toContain('Creating an optimized production build');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
