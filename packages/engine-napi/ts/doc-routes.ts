/**
 * Single-document routes: `GET /{index}/_doc/{id}`, `PUT|POST /{index}/_doc/{id}` and
 * `_mget`. A single-document write is a one-item `_bulk` (same versioning, translog and
 * refresh handling), answered in the shape of ES's index API.
 */
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import type { Reply, Request } from './routes.js';

interface BulkItem {
  status: number;
  error?: { type: string; reason: string };
  [key: string]: unknown;
}

export async function indexDoc(engine: Engine, req: Request, index: string, id: string): Promise<Reply> {
  const source = req.body.toString('utf8').trim();
  if (source.length === 0) {
    throw EngineError.plain(400, 'request body is required');
  }
  // The body goes in as the bulk source line; bulk validates it (one line, a JSON object).
  const line = source.replace(/\r?\n/g, ' ');
  const action = JSON.stringify({ index: { _index: index, _id: id } });
  const bulk = JSON.parse(
    await engine.bulk(index, Buffer.from(`${action}\n${line}\n`), req.params.refresh),
  ) as { items: { index: BulkItem }[] };
  const item = bulk.items[0]?.index;
  if (!item) throw EngineError.plain(500, 'bulk returned no item');
  const { status, error, ...rest } = item;
  if (error) {
    return { status, body: JSON.stringify({ error: { root_cause: [error], ...error }, status }) };
  }
  // ES reports a write that forced a refresh (`?refresh` or `?refresh=true`).
  const forced = req.params.refresh === '' || req.params.refresh === 'true';
  return { status, body: JSON.stringify(forced ? { ...rest, forced_refresh: true } : rest) };
}

export function getDoc(engine: Engine, index: string, id: string): Reply {
  return engine.getDoc(index, id);
}

export function mget(engine: Engine, req: Request, index: string | undefined): Reply {
  return { status: 200, body: engine.mget(index, req.body) };
}
