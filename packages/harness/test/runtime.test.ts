import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The project pins its Node (the root `node` devDependency, installed as node_modules/.bin/node,
 * which npm puts first on every script's PATH): the harness, the candidate's HTTP service and
 * the site all run on it, whatever Node launched npm. If the pin stops applying (the package not
 * installed, a script that calls /usr/bin/node), runs would silently measure another runtime.
 */
describe('runtime', () => {
  const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
    devDependencies: { node: string };
  };

  it('runs on the pinned Node', () => {
    expect(process.version).toBe(`v${root.devDependencies.node}`);
  });

  it('declares a range in engines that the pinned Node satisfies', () => {
    const minimum = /^>=(\d+)\.(\d+)$/.exec(root.engines.node);
    expect(minimum, `engines.node ${root.engines.node} is not ">=major.minor"`).not.toBeNull();
    const [major = 0, minor = 0] = root.devDependencies.node.split('.').map(Number);
    const [wantMajor, wantMinor] = [Number(minimum?.[1]), Number(minimum?.[2])];
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
  });
});
