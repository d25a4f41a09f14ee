/**
 * ES writes an exception's fields in a fixed order: `root_cause` (at the top), `type`,
 * `reason`, then the rest (`index`, `caused_by`, ...). The engine's JSON objects come out with
 * their keys sorted, so its error bodies are put back in ES's order before they are sent:
 * clients and tests that match an error's text (`type` followed by `reason`) see what ES sends.
 */

type Json = unknown;

const FIRST = ['root_cause', 'type', 'reason'];

function reorder(value: Json): Json {
  if (Array.isArray(value)) return value.map(reorder);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, Json>);
  const rank = (key: string) => {
    const at = FIRST.indexOf(key);
    return at < 0 ? FIRST.length : at;
  };
  entries.sort(([a], [b]) => rank(a) - rank(b));
  return Object.fromEntries(entries.map(([k, v]) => [k, reorder(v)]));
}

/** An error body (`{"error":{...},"status":N}`) with its exceptions' fields in ES's order. */
export function inEsOrder(body: string): string {
  if (!body.startsWith('{"error":{')) return body;
  try {
    return JSON.stringify(reorder(JSON.parse(body)));
  } catch {
    return body;
  }
}
