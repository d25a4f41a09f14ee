#!/usr/bin/env node
/**
 * Entry point: `node dist/server.js --port <N> --data-dir <DIR> [--host 127.0.0.1]
 * [--max-content-length 100mb]`. Binds loopback unless told otherwise: the service has no
 * authentication, so any other host earns a warning on stderr. Prints one readiness line; on SIGTERM/SIGINT stops accepting, lets in-flight requests
 * finish, commits every index and exits 0.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { exposureWarning, parseConfig, UsageError } from './cli.js';
import { Engine } from './engine.js';
import { EngineError } from './errors.js';
import { createService } from './http.js';

function main(): void {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`everycell-engine: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  let engine: Engine;
  try {
    mkdirSync(config.dataDir, { recursive: true });
    engine = new Engine(config.dataDir);
  } catch (err) {
    // E.g. another engine already holds this data directory's index writer locks.
    const reason = err instanceof EngineError ? err.reason : (err as Error).message;
    console.error(`everycell-engine: cannot open data dir ${config.dataDir}: ${reason}`);
    process.exit(1);
  }
  const warning = exposureWarning(config.host);
  if (warning) console.error(warning);
  const server = createService(engine, {
    debugRoutes: process.env.EVERYCELL_ENABLE_DEBUG_PANIC === '1',
    maxContentLength: config.maxContentLength,
  });
  server.keepAliveTimeout = 65_000;
  server.on('error', (err) => {
    console.error(`everycell-engine: cannot listen on ${config.host}:${config.port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`everycell-engine listening on http://${config.host}:${port}\n`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Stop accepting, drop idle keep-alive sockets, and let in-flight requests finish.
    server.close(() => {
      try {
        engine.close();
        process.exit(0);
      } catch (err) {
        console.error(
          `everycell-engine: commit on ${signal} failed: ${err instanceof EngineError ? err.reason : (err as Error).message}`,
        );
        process.exit(1);
      }
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main();
