/** Elasticsearch byte-size values (`100mb`, `512kb`, `1048576`, `1gb`): binary units, as ES uses. */

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

/** The size in bytes, or undefined when the text is not a whole byte size. */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+)\s*([kmg]?b)?$/i.exec(text.trim());
  if (!m?.[1]) return undefined;
  const bytes = Number(m[1]) * (UNITS[(m[2] ?? '').toLowerCase()] ?? Number.NaN);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
