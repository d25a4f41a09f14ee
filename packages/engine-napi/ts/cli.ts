/** Command-line flags for the server, with env fallbacks; a bad flag is a one-line error. */
import { parseArgs } from 'node:util';
import { parseByteSize } from './byte-size.js';

export interface ServerConfig {
  port: number;
  dataDir: string;
  host: string;
  /** ES `http.max_content_length`: the largest request body accepted, in bytes. */
  maxContentLength: number;
}

export class UsageError extends Error {}

/** Elasticsearch's default `http.max_content_length`. */
export const DEFAULT_MAX_CONTENT_LENGTH = 100 * 1024 * 1024;

const USAGE =
  'usage: everycell-engine --port <N> --data-dir <DIR> [--host 127.0.0.1] [--max-content-length 100mb]';

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  let values: { port?: string; 'data-dir'?: string; host?: string; 'max-content-length'?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        host: { type: 'string' },
        'max-content-length': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (${USAGE})`);
  }
  const portText = values.port ?? env.EVERYCELL_PORT;
  const dataDir = values['data-dir'] ?? env.EVERYCELL_DATA_DIR;
  if (portText === undefined) throw new UsageError(`missing --port (or EVERYCELL_PORT) (${USAGE})`);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer 0-65535, got "${portText}" (${USAGE})`);
  }
  if (dataDir === undefined || dataDir === '') {
    throw new UsageError(`missing --data-dir (or EVERYCELL_DATA_DIR) (${USAGE})`);
  }
  const host = values.host ?? '127.0.0.1';
  if (host === '') throw new UsageError(`--host must not be empty (${USAGE})`);
  const limitText = values['max-content-length'];
  let maxContentLength = DEFAULT_MAX_CONTENT_LENGTH;
  if (limitText !== undefined) {
    const parsed = parseByteSize(limitText);
    if (parsed === undefined || parsed < 1) {
      throw new UsageError(
        `--max-content-length must be a positive size such as 1048576, 512kb or 100mb, got "${limitText}" (${USAGE})`,
      );
    }
    maxContentLength = parsed;
  }
  return { port, dataDir, host, maxContentLength };
}

/** Loopback hosts: anything else exposes an unauthenticated service to the network. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The stderr warning for a non-loopback bind, or undefined when the host is loopback. */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return (
    `everycell-engine: WARNING: listening on ${host}, not loopback. This service has no authentication ` +
    'and no TLS: anyone who can reach this address can read, write and delete every index.'
  );
}
