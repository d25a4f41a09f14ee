/** Command-line flags for the server, with env fallbacks; a bad flag is a one-line error. */
import { parseArgs } from 'node:util';

export interface ServerConfig {
  port: number;
  dataDir: string;
  host: string;
}

export class UsageError extends Error {}

const USAGE = 'usage: everycell-engine --port <N> --data-dir <DIR> [--host 127.0.0.1]';

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  let values: { port?: string; 'data-dir'?: string; host?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, host: { type: 'string' } },
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
  return { port, dataDir, host: values.host ?? '127.0.0.1' };
}
