import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Policy checks on .github/workflows, by careful text reading (no YAML parser is installed): the
 * workflows are written in block style with two-space indents, which these helpers rely on and
 * check (a job that is not found is a failure, not a pass).
 */

const WORKFLOWS = fileURLToPath(new URL('../../../.github/workflows/', import.meta.url));
const read = (name: string) => readFileSync(join(WORKFLOWS, name), 'utf8');

/** Action pins verified against public workflows (two independent sources each). */
const VERIFIED: Record<string, string> = {
  'actions/checkout': '11bd71901bbe5b1630ceea73d27597364c9af683', // v4.2.2
  'actions/setup-node': '49933ea5288caeca8642d1e84afbd3f7d6820020', // v4.4.0
  'actions/setup-java': 'c5195efecf7bdfc987ee8bae7a71cb8b11521c00', // v4.7.1
  'actions/cache': '5a3ec84eff668545956fd18022155c47e93e2684', // v4.2.3
  'actions/upload-artifact': 'ea165f8d65b6e75b540449e92b4886f43607fa02', // v4.6.2
  'actions/download-artifact': 'd3f86a106a0bac45b974a628896c90dbdf5c8093', // v4.3.0
  'actions/github-script': '60a0d83039c74a4aee543508d2ffcb1c3799cdea', // v7.0.1
  'actions/upload-pages-artifact': '56afc609e74202658d3ffba0e8f6dda462b719fa', // v3.0.1
  'actions/deploy-pages': 'd6db90164ac5ed86f2b6aed7e0febac5b3c0c03e', // v4.0.5
};

function usesLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*(?:-\s+)?uses:/.test(line));
}

/** Problems with `uses:` pins: every action at a full 40-hex SHA we verified, version in a comment. */
function pinProblems(text: string): string[] {
  return usesLines(text).flatMap((line) => {
    const m = /uses:\s*([^@\s]+)@(\S+)\s*(#\s*v\d[\w.]*)?\s*$/.exec(line);
    if (!m) return [`unparsable uses line: ${line.trim()}`];
    const [, action, ref, comment] = m as unknown as [string, string, string, string | undefined];
    const problems: string[] = [];
    if (!/^[0-9a-f]{40}$/.test(ref)) problems.push(`${action} is not pinned to a commit SHA: ${ref}`);
    else if (VERIFIED[action] !== ref) problems.push(`${action}@${ref} is not a verified pin`);
    if (!comment) problems.push(`${action} has no "# vX.Y.Z" comment`);
    return problems;
  });
}

/** Jobs as name -> the lines of their block (job keys sit at two spaces under `jobs:`). */
function jobs(text: string): Map<string, string[]> {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^jobs:\s*$/.test(l));
  const result = new Map<string, string[]>();
  if (start < 0) return result;
  let current: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break; // next top-level key
    const header = /^ {2}([A-Za-z0-9_-]+):\s*$/.exec(line);
    if (header) {
      current = [];
      result.set(header[1] as string, current);
    } else current?.push(line);
  }
  return result;
}

/** Problems with a job: permissions and timeout-minutes set on the job itself. */
function jobProblems(text: string): string[] {
  const found = jobs(text);
  if (found.size === 0) return ['no jobs found'];
  return [...found].flatMap(([name, block]) => [
    ...(block.some((l) => /^ {4}permissions:/.test(l)) ? [] : [`job ${name} has no permissions`]),
    ...(block.some((l) => /^ {4}timeout-minutes:\s*\d+\s*$/.test(l))
      ? []
      : [`job ${name} has no timeout-minutes`]),
  ]);
}

/** The `permissions:` entries of a job: scope -> level. */
function jobPermissions(block: string[]): Record<string, string> {
  const at = block.findIndex((l) => /^ {4}permissions:/.test(l));
  const inline = /^ {4}permissions:\s*(\S.*)$/.exec(block[at] ?? '');
  if (inline) return inline[1] === '{}' ? {} : { all: inline[1] as string };
  const perms: Record<string, string> = {};
  for (const line of block.slice(at + 1)) {
    const m = /^ {6}([a-z-]+):\s*(\S+)/.exec(line);
    if (!m) break;
    perms[m[1] as string] = m[2] as string;
  }
  return perms;
}

const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'));

describe('workflow policy', () => {
  it('finds the three workflows', () => {
    expect(files.sort()).toEqual(['gate.yml', 'main.yml', 'pr-comment.yml']);
  });

  it.each(files)('%s pins every action to a verified 40-hex SHA with its version', (file) => {
    expect(usesLines(read(file)).length).toBeGreaterThan(0);
    expect(pinProblems(read(file))).toEqual([]);
  });

  it.each(files)('%s gives every job permissions and timeout-minutes, and cancels older runs', (file) => {
    const text = read(file);
    expect(jobProblems(text)).toEqual([]);
    expect(text).toMatch(/^permissions: \{\}$/m);
    expect(text).toMatch(/^concurrency:\n {2}group: .+\n {2}cancel-in-progress: true$/m);
  });

  it('the pull_request workflow has no write permission and no secrets', () => {
    const text = read('gate.yml');
    expect(text).toMatch(/^ {2}pull_request:/m);
    expect(text).not.toMatch(/:\s*write\b/);
    expect(text).not.toMatch(/secrets\./);
    expect(text).not.toMatch(/pull_request_target/);
    for (const block of jobs(text).values()) expect(jobPermissions(block)).toEqual({ contents: 'read' });
    expect(text).toContain('persist-credentials: false');
    expect(text).toContain('npm run ci:gate');
    expect(text).toContain('OpenSearch 2.19.1');
  });

  it('the workflow_run job never checks out or runs code, and takes the PR number from the event', () => {
    const text = read('pr-comment.yml');
    expect(text).toMatch(/^ {2}workflow_run:\n {4}workflows: \[scorecard gate\]/m);
    expect(text).not.toContain('actions/checkout');
    expect(text).not.toMatch(/^\s*(?:-\s+)?run:/m);
    expect(text).not.toMatch(/\bnpm\b|\bnpx\b/);
    expect(text).toContain('context.payload.workflow_run');
    expect(text).toContain('pr.data.head.sha !== run.head_sha');
    const [block] = [...jobs(text).values()];
    expect(jobPermissions(block ?? [])).toEqual({ actions: 'read', 'pull-requests': 'write' });
  });

  it('main writes only where it must: commit has contents: write, deploy has pages', () => {
    const found = jobs(read('main.yml'));
    expect([...found.keys()]).toEqual(['bench', 'shard', 'merge-1m', 'commit', 'site', 'deploy']);
    for (const job of ['bench', 'shard', 'merge-1m'])
      expect(jobPermissions(found.get(job) ?? []), job).toEqual({ contents: 'read' });
    expect(jobPermissions(found.get('commit') ?? [])).toEqual({ contents: 'write' });
    expect(jobPermissions(found.get('site') ?? [])).toEqual({ contents: 'read' });
    expect(jobPermissions(found.get('deploy') ?? [])).toEqual({ pages: 'write', 'id-token': 'write' });
    // The writing job runs git only: no install, no project script.
    expect((found.get('commit') ?? []).join('\n')).not.toMatch(/\bnpm\b|\bnpx\b|\bnode\b/);
  });

  it('main runs the 1M matrix as shards and publishes their merged card', () => {
    const found = jobs(read('main.yml'));
    const shard = (found.get('shard') ?? []).join('\n');
    expect(shard).toMatch(/shard: \[1, 2, 3, 4\]/);
    expect(shard).toContain('--docs 1m --knn --clients 1,8 --shard "$SHARD/4"');
    const merge = (found.get('merge-1m') ?? []).join('\n');
    expect(merge).toContain('needs: shard');
    expect(merge).toContain('npm run merge-cards');
    expect((found.get('commit') ?? []).join('\n')).toContain('name: published-1m');
  });

  it('the checks catch a bad workflow (they can fail)', () => {
    const bad = [
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-24.04',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - uses: actions/cache@5a3ec84eff668545956fd18022155c47e93e2684',
      '      - uses: actions/setup-node@0000000000000000000000000000000000000000 # v4.4.0',
      '',
    ].join('\n');
    expect(pinProblems(bad)).toEqual([
      'actions/checkout is not pinned to a commit SHA: v4',
      'actions/checkout has no "# vX.Y.Z" comment',
      'actions/cache has no "# vX.Y.Z" comment',
      'actions/setup-node@0000000000000000000000000000000000000000 is not a verified pin',
    ]);
    expect(jobProblems(bad)).toEqual(['job build has no permissions', 'job build has no timeout-minutes']);
    expect(jobProblems('on: push\n')).toEqual(['no jobs found']);
  });
});
