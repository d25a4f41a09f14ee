/**
 * The suite's `/regex/` expectations are Java patterns compiled with `Pattern.COMMENTS`
 * (whitespace ignored, `#` starts a comment to the end of the line, everywhere: Java also drops
 * them inside character classes) and tested with `find()`. JavaScript has no such flag, so the
 * pattern is rewritten without them first.
 */

/** `source` with COMMENTS-mode whitespace and comments removed; escapes kept as written. */
export function stripComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) {
        out += c;
      } else if (/\s/.test(next)) {
        // An escaped space is a literal space in COMMENTS mode.
        out += next === ' ' ? ' ' : `\\${next}`;
        i++;
      } else {
        out += c + next;
        i++;
      }
    } else if (/\s/.test(c)) {
      // ignored
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else out += c;
  }
  return out;
}

/**
 * Java's `$` (without MULTILINE) also matches before a final line break, which cat APIs' bodies
 * end with; JavaScript's only at the very end.
 */
function javaDollars(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else out += c === '$' ? '(?=\\n?$)' : c;
  }
  return out;
}

/** Java's `\p{Alpha}`-style classes and `\A`/`\Z` anchors in their JavaScript forms. */
function toJavaScript(source: string): string {
  return javaDollars(source)
    .replace(/\\p\{Alpha\}/g, '[A-Za-z]')
    .replace(/\\p\{Digit\}/g, '[0-9]')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$')
    .replace(/\\z/g, '$');
}

/** A compiled Java COMMENTS-mode pattern (dot-all off, as Java's default). */
export function javaPattern(source: string, comments = true): RegExp {
  const text = comments ? stripComments(source) : source;
  return new RegExp(toJavaScript(text));
}

/** A trimmed `/.../` string is a pattern in the suite's expectations. */
export function patternOf(expected: unknown): string | undefined {
  if (typeof expected !== 'string') return undefined;
  const text = expected.trim();
  if (text.length > 2 && text.startsWith('/') && text.endsWith('/')) return text.slice(1, -1);
  return undefined;
}
