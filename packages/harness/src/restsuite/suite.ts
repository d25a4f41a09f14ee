/** The suite's test files, read in a stable order, and the checked-in list of what is left out. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESTSUITE_DIR } from './fetch.js';
import { readTestFile, type TestFile } from './testFile.js';

export function loadTestFiles(testDir: string): TestFile[] {
  const files: TestFile[] = [];
  for (const api of readdirSync(testDir).sort()) {
    const folder = join(testDir, api);
    let names: string[];
    try {
      names = readdirSync(folder).filter((n) => n.endsWith('.yml') || n.endsWith('.yaml'));
    } catch {
      continue; // README.asciidoc
    }
    for (const name of names.sort()) files.push(readTestFile(join(folder, name), `${api}/${name}`));
  }
  return files;
}

/** A group of APIs left out, and why: cluster administration a one-node engine does not have. */
export interface Exclusion {
  /** API folder names; a trailing `*` matches a prefix (`snapshot.*`). */
  apis: string[];
  reason: string;
}

export const EXCLUSIONS_FILE = join(RESTSUITE_DIR, 'exclusions.json');

export function loadExclusions(file = EXCLUSIONS_FILE): Exclusion[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { exclusions: Exclusion[] };
  for (const e of raw.exclusions)
    if (!Array.isArray(e.apis) || e.apis.length === 0 || typeof e.reason !== 'string' || e.reason.length < 20)
      throw new Error(`${file}: every exclusion names its APIs and a reason of a sentence`);
  return raw.exclusions;
}

/** The exclusion that leaves `api` out, if any. */
export function exclusionOf(api: string, exclusions: Exclusion[]): Exclusion | undefined {
  return exclusions.find((e) =>
    e.apis.some((pattern) =>
      pattern.endsWith('*') ? api.startsWith(pattern.slice(0, -1)) : api === pattern,
    ),
  );
}
