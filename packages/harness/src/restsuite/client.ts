/** Sending one built request to an engine and reading its answer as the Java runner reads it. */
import { request } from 'undici';
import type { BuiltRequest } from './spec.js';

export interface Answer {
  status: number;
  method: string;
  /** Values of every `Warning` header. */
  warnings: string[];
  text: string;
  /** The parsed body for JSON answers; undefined for text (cat APIs) and empty bodies. */
  json: unknown;
  isJson: boolean;
}

const TIMEOUT_MS = 60_000;

function headerList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Warning header values; Node joins repeated headers with ", ", which also appears inside a
 * warning's quoted text, so the joined form is split only before a new `299 ` warn-code.
 */
function warningsOf(value: string | string[] | undefined): string[] {
  return headerList(value).flatMap((v) => v.split(/, (?=\d{3} )/));
}

export async function send(
  base: string,
  built: BuiltRequest,
  headers: Record<string, string>,
): Promise<Answer> {
  const sent: Record<string, string> = { ...headers };
  if (built.body !== undefined && !Object.keys(sent).some((h) => h.toLowerCase() === 'content-type'))
    sent['content-type'] = built.contentType ?? 'application/json';
  const res = await request(base + built.path, {
    method: built.method as 'GET',
    headers: sent,
    body: built.body,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = built.method === 'HEAD' ? '' : await res.body.text();
  if (built.method === 'HEAD') await res.body.dump();
  const type = String(res.headers['content-type'] ?? '');
  const isJson = /json/.test(type) && text.length > 0;
  let json: unknown;
  if (isJson) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {
    status: res.statusCode,
    method: built.method,
    warnings: warningsOf(res.headers.warning),
    text,
    json,
    isJson: isJson && json !== undefined,
  };
}
