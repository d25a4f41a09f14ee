/**
 * Requests built from the suite's endpoint specs (`api/*.json`), as Elasticsearch's own YAML
 * runner builds them: the path with the most parts the call names, the other parameters in the
 * query string, an unknown parameter refused before anything is sent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface SpecPath {
  path: string;
  methods: string[];
  parts: string[];
}

export interface ApiSpec {
  name: string;
  paths: SpecPath[];
  params: Set<string>;
  body: { required: boolean; ndjson: boolean } | undefined;
}

export interface ApiSpecs {
  apis: Map<string, ApiSpec>;
  /** `_common.json`'s parameters, which every endpoint takes. */
  common: Set<string>;
}

/** Parameters the Java client itself consumes (never sent as such). */
const CLIENT_PARAMS = new Set(['ignore']);

export interface BuiltRequest {
  method: string;
  /** Path and query string, percent-encoded. */
  path: string;
  body?: string;
  contentType?: string;
  /** Statuses the call's `ignore` parameter lets through as non-errors. */
  ignore: number[];
}

interface RawSpec {
  url: { paths: { path: string; methods: string[]; parts?: Record<string, unknown> }[] };
  params?: Record<string, unknown>;
  body?: { required?: boolean; serialize?: string };
}

export function loadSpecs(apiDir: string): ApiSpecs {
  const apis = new Map<string, ApiSpec>();
  let common = new Set<string>();
  for (const file of readdirSync(apiDir)) {
    if (!file.endsWith('.json')) continue;
    const raw = JSON.parse(readFileSync(join(apiDir, file), 'utf8')) as Record<string, unknown>;
    if (file === '_common.json') {
      common = new Set(Object.keys((raw.params ?? {}) as object));
      continue;
    }
    for (const [name, value] of Object.entries(raw)) {
      const spec = value as RawSpec;
      apis.set(name, {
        name,
        paths: spec.url.paths.map((p) => ({
          path: p.path,
          methods: p.methods,
          parts: Object.keys(p.parts ?? {}),
        })),
        params: new Set(Object.keys(spec.params ?? {})),
        body: spec.body
          ? { required: spec.body.required === true, ndjson: spec.body.serialize === 'bulk' }
          : undefined,
      });
    }
  }
  return { apis, common };
}

/** A parameter's value on the wire: lists joined by commas, as the clients send them. */
export function paramText(value: unknown): string {
  if (Array.isArray(value)) return value.map(paramText).join(',');
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A path part percent-encoded the way java.net.URI encodes a path, slashes included. */
function encodePart(text: string): string {
  return encodeURI(text).replace(/\?/g, '%3F').replace(/#/g, '%23').replace(/\//g, '%2F');
}

/** The body as the wire carries it: JSON, or NDJSON for bulk-style endpoints. */
function serializeBody(body: unknown, ndjson: boolean): { text: string; contentType: string } {
  if (ndjson) {
    const lines = Array.isArray(body) ? body : [body];
    const text = lines
      .map((line) => (typeof line === 'string' ? line.replace(/\n$/, '') : JSON.stringify(line)))
      .join('\n');
    return { text: `${text}\n`, contentType: 'application/x-ndjson' };
  }
  if (typeof body === 'string') return { text: body, contentType: 'application/json' };
  return { text: JSON.stringify(body), contentType: 'application/json' };
}

/** Method order the runner picks from: a body prefers POST, then PUT; without one, GET. */
function pickMethod(methods: string[], hasBody: boolean): string {
  const order = hasBody ? ['POST', 'PUT', 'GET', 'DELETE'] : ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
  return order.find((m) => methods.includes(m)) ?? methods[0] ?? 'GET';
}

/**
 * The HTTP request for calling `api` with `params` (`body` among them). Throws, as the Java
 * client does, on an API the spec does not have or a parameter it does not take: such a call is
 * the test's `catch: param`.
 */
export function buildRequest(specs: ApiSpecs, api: string, params: Record<string, unknown>): BuiltRequest {
  const spec = specs.apis.get(api);
  if (!spec) throw new ParamError(`rest api [${api}] doesn't exist in the rest spec`);
  const { body, ignore, ...rest } = params;
  const names = Object.keys(rest);
  const usable = spec.paths.filter((p) => p.parts.every((part) => names.includes(part)));
  const most = Math.max(...usable.map((p) => p.parts.length));
  const path = usable.find((p) => p.parts.length === most);
  if (!path) throw new ParamError(`no path of [${api}] fits the parameters [${names.join(', ')}]`);
  let url = path.path;
  const query: string[] = [];
  for (const [name, value] of Object.entries(rest)) {
    if (path.parts.includes(name)) {
      url = url.replace(`{${name}}`, encodePart(paramText(value)));
    } else if (spec.params.has(name) || specs.common.has(name) || CLIENT_PARAMS.has(name)) {
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(paramText(value))}`);
    } else {
      throw new ParamError(`path/param [${name}] not supported by [${api}] api`);
    }
  }
  const hasBody = body !== undefined && body !== null;
  if (hasBody && !spec.body) throw new ParamError(`body is not supported by [${api}] api`);
  if (!hasBody && spec.body?.required) throw new ParamError(`body is required by [${api}] api`);
  const method = pickMethod(path.methods, hasBody);
  const built: BuiltRequest = {
    method,
    path: query.length > 0 ? `${url}?${query.join('&')}` : url,
    ignore: ignoreList(ignore),
  };
  if (hasBody) {
    const { text, contentType } = serializeBody(body, spec.body?.ndjson === true);
    built.body = text;
    built.contentType = contentType;
  }
  return built;
}

function ignoreList(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  return paramText(value)
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n));
}

/** A call the client refuses before sending: the YAML tests' `catch: param`. */
export class ParamError extends Error {}
