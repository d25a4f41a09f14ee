/**
 * Bind address: the service has no authentication, so it listens on loopback unless told
 * otherwise, and any other host earns a warning on stderr.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CONTENT_LENGTH, exposureWarning, isLoopbackHost, parseConfig } from '../ts/cli.js';
import { type RunningServer, startServer } from './server-process.js';

/** Local addresses of listening TCP sockets on `port`, from /proc/net/tcp{,6} (hex, as the kernel prints them). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [addr, p] = (cols[1] ?? '').split(':');
      if (p === hexPort && cols[3] === '0A') found.push(addr ?? '');
    }
  }
  return found;
}

describe('bind address', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-bind-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only by default, without a warning', () => {
    const port = Number(new URL(server.url).port);
    // 0100007F is 127.0.0.1 in /proc/net/tcp's little-endian hex; 00000000 would be every interface.
    expect(listeningAddresses(port)).toEqual(['0100007F']);
    expect(server.stderr()).not.toContain('WARNING');
  });

  it('defaults the host to 127.0.0.1 and the body limit to ES 100 MB', () => {
    const config = parseConfig(['--port', '0', '--data-dir', '/tmp/x'], {});
    expect(config.host).toBe('127.0.0.1');
    expect(config.maxContentLength).toBe(DEFAULT_MAX_CONTENT_LENGTH);
    expect(
      parseConfig(['--port', '0', '--data-dir', '/x', '--max-content-length', '512kb'], {}).maxContentLength,
    ).toBe(512 * 1024);
  });

  it('warns that there is no authentication for any non-loopback host', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(exposureWarning(host), host).toBeUndefined();
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.internal', '128.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(false);
      expect(exposureWarning(host), host).toMatch(/WARNING: .*no authentication/);
    }
  });
});
