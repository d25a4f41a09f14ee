/**
 * Just enough of RFC 5322 / MIME to read a 2002 e-mail as a person would: unfolded headers,
 * encoded words, multipart bodies, quoted-printable and base64 text parts, HTML reduced to its
 * text. Not a validating parser: a malformed part is read as plain text rather than rejected.
 */

export type Headers = Map<string, string>;

/** Headers (lower-cased names, folded lines joined; the first of a repeated header kept) and body. */
export function splitMessage(text: string): { headers: Headers; body: string } {
  const normalized = text.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers: Headers = new Map();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    // The mbox "From sender date" line has no colon right after its first word.
    if (colon <= 0 || /\s/.test(line.slice(0, colon))) continue;
    const name = line.slice(0, colon).toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

export const header = (headers: Headers, name: string): string | undefined => headers.get(name);

/** A Content-Type parameter (charset, boundary), unquoted. */
function parameter(value: string | undefined, name: string): string | undefined {
  const m = value?.match(new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i'));
  return m ? (m[1] ?? m[2]) : undefined;
}

function bufferText(bytes: Buffer, charset: string | undefined): string {
  return /^utf-?8$/i.test(charset ?? '') ? bytes.toString('utf8') : bytes.toString('latin1');
}

function quotedPrintable(text: string, charset: string | undefined): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      const code = soft.charCodeAt(i);
      if (code < 256) bytes.push(code);
      else bytes.push(...Buffer.from(soft[i] as string, 'utf8'));
    }
  }
  return bufferText(Buffer.from(bytes), charset);
}

/** RFC 2047 encoded words (=?charset?Q|B?text?=) in a header, decoded. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? bufferText(Buffer.from(text, 'base64'), charset)
        : quotedPrintable(text.replace(/_/g, ' '), charset),
    );
}

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an HTML part: scripts, styles and comments dropped, tags made spaces, entities read. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|[a-z]+);/gi, (m, e: string) =>
      e.startsWith('#') ? String.fromCharCode(Number(e.slice(1)) % 65_536) : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

/** A single part's readable text, decoded by its transfer encoding and type. */
function partText(headers: Headers, body: string): string {
  const type = header(headers, 'content-type');
  const charset = parameter(type, 'charset');
  const encoding = (header(headers, 'content-transfer-encoding') ?? '').toLowerCase();
  let text = body;
  if (encoding.includes('base64'))
    text = bufferText(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
  else if (encoding.includes('quoted-printable')) text = quotedPrintable(body, charset);
  return /text\/html/i.test(type ?? '') ? htmlText(text) : text.trim();
}

/**
 * The readable text of a message body: for multipart, its text/plain parts (its HTML parts'
 * text when it has none; nested multiparts followed); attachments left out.
 */
export function bodyText(headers: Headers, body: string, depth = 0): string {
  const type = header(headers, 'content-type') ?? 'text/plain';
  const boundary = parameter(type, 'boundary');
  if (!/^\s*multipart\//i.test(type) || !boundary || depth > 4) {
    return /^\s*(text\/|$)/i.test(type) || !/^\s*\w+\//.test(type) ? partText(headers, body) : '';
  }
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => splitMessage(p.replace(/^[ \t]*\n/, '')));
  const texts = (html: boolean) =>
    parts
      .filter((p) => {
        const t = header(p.headers, 'content-type') ?? 'text/plain';
        if (/^\s*multipart\//i.test(t)) return !html;
        return html ? /text\/html/i.test(t) : /^\s*text\/plain/i.test(t) || !/^\s*\w+\//.test(t);
      })
      .map((p) => bodyText(p.headers, p.body, depth + 1))
      .filter((t) => t.length > 0);
  const plain = texts(false);
  return (plain.length > 0 ? plain : texts(true)).join('\n\n');
}
