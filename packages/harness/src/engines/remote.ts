import { fetchRootInfo } from './info.js';
import type { RunningEngine } from './types.js';

/**
 * An engine someone else runs (--candidate-url / --baseline-url). It must answer GET / now;
 * the harness never stops it, and its death shows up as refused connections.
 */
export async function connectRemote(role: 'candidate' | 'baseline', rawUrl: string): Promise<RunningEngine> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Error(`--${role}-url ${rawUrl} is not a URL: use e.g. http://127.0.0.1:9200`);
  }
  const base = url.origin;
  let info: Awaited<ReturnType<typeof fetchRootInfo>>;
  try {
    info = await fetchRootInfo(base);
  } catch (error) {
    throw new Error(`${role} at ${base} is unreachable: ${(error as Error).message}`);
  }
  return {
    role,
    product: info.product,
    version: info.version,
    url: base,
    pid: undefined,
    exited: new Promise(() => {}),
    stop: async () => {},
  };
}
