/**
 * Elasticsearch's REST API test suite as a dependency: Maven unpacks
 * org.elasticsearch:rest-api-spec:7.10.2 into `restsuite/target/` (the pom says why that
 * version), once; later calls find it there. Nothing of the suite is committed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUITE_VERSION = '7.10.2';
export const RESTSUITE_DIR = fileURLToPath(new URL('../../restsuite/', import.meta.url));
const SPEC_DIR = join(RESTSUITE_DIR, 'target', 'rest-api-spec');

export interface SuiteFiles {
  /** `rest-api-spec/api`: one JSON spec per endpoint, plus `_common.json`. */
  apiDir: string;
  /** `rest-api-spec/test`: one folder per API, YAML test files inside. */
  testDir: string;
}

function unpacked(): SuiteFiles | undefined {
  const apiDir = join(SPEC_DIR, 'api');
  const testDir = join(SPEC_DIR, 'test');
  if (!existsSync(apiDir) || !existsSync(testDir)) return undefined;
  if (readdirSync(apiDir).length < 100 || readdirSync(testDir).length < 50) return undefined;
  return { apiDir, testDir };
}

/** The unpacked suite, running Maven first when it is not there yet. */
export async function ensureSuite(log: (line: string) => void = () => {}): Promise<SuiteFiles> {
  const ready = unpacked();
  if (ready) return ready;
  log(`rest suite: fetching org.elasticsearch:rest-api-spec:${SUITE_VERSION} with Maven`);
  const pom = join(RESTSUITE_DIR, 'pom.xml');
  const { code, tail } = await run('mvn', ['-q', '-B', '-f', pom, 'generate-resources']);
  if (code !== 0)
    throw new Error(
      `rest suite: Maven could not fetch rest-api-spec ${SUITE_VERSION} (exit ${code}); install Maven and reach Maven Central: ${tail.trim().split('\n').slice(-3).join(' | ')}`,
    );
  const after = unpacked();
  if (!after) throw new Error(`rest suite: Maven succeeded but ${SPEC_DIR} holds no api/ and test/`);
  return after;
}

function run(cmd: string, args: string[]): Promise<{ code: number; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => resolve({ code: 127, tail: String(error.message) }));
    child.once('close', (code) => resolve({ code: code ?? 1, tail }));
  });
}
