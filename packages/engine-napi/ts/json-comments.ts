/**
 * ES's JSON parser allows comments (`/* *\/` and `//` to the end of the line): a body with
 * them is read without them. Strings are left alone; a body without a comment is returned as is.
 */
const SLASH = 0x2f;
const STAR = 0x2a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** Whether `body` may hold a comment at all (a cheap test before the scan). */
function mayHoldComment(body: Buffer): boolean {
  return body.indexOf('/*') >= 0 || body.indexOf('//') >= 0;
}

export function stripJsonComments(body: Buffer): Buffer {
  if (!mayHoldComment(body)) return body;
  const out: number[] = [];
  let changed = false;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i] as number;
    if (inString) {
      out.push(b);
      if (b === BACKSLASH && i + 1 < body.length) out.push(body[++i] as number);
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (b === QUOTE) inString = true;
    if (b === SLASH && body[i + 1] === STAR) {
      const end = body.indexOf('*/', i + 2);
      i = end < 0 ? body.length : end + 1;
      out.push(0x20);
      changed = true;
      continue;
    }
    if (b === SLASH && body[i + 1] === SLASH) {
      const end = body.indexOf(NEWLINE, i + 2);
      i = end < 0 ? body.length : end - 1;
      changed = true;
      continue;
    }
    out.push(b);
  }
  return changed ? Buffer.from(out) : body;
}
