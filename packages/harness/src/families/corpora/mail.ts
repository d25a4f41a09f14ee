import { loadMail, type Mail } from '../../corpus/mail.js';
import type { Rng } from '../../rng.js';
import { searchRow } from '../define.js';
import { bucketsOf, idsOf, totalOf } from '../signals/core.js';
import { highlightsOf, totalAndScores } from '../signals/hits.js';
import type { Family } from '../types.js';

/**
 * Rows on real e-mail (`--corpus mail`): full text over subjects and bodies, phrases, highlighted
 * fragments, the sent date in histograms and ranges, senders' domains. Words and phrases come from
 * messages among the first MAIL_SAMPLE_DOCS of the corpus order (indexed by any --docs >= that),
 * taken as whitespace-separated runs of letters, so each occurs as written in a real message.
 * Scored rows compare totals and their scored pages (tie-aware); sorted rows sort on the unique uid (or the date, then uid).
 */

export const MAIL_SAMPLE_DOCS = 1_000;

function sampleMail(rng: Rng): Mail {
  const all = loadMail();
  return all[rng.int(0, Math.min(MAIL_SAMPLE_DOCS, all.length) - 1)] as Mail;
}

/** Whitespace-separated runs of 2+ letters in `text`, lower-cased, in order; others as null. */
const plainTokens = (text: string): (string | null)[] =>
  text.split(/\s+/).map((t) => (/^[A-Za-z]{2,}$/.test(t) ? t.toLowerCase() : null));

/** A word of 4+ letters from the subject or body of a sampled message. */
function pickWord(rng: Rng, field: 'subject' | 'body'): string {
  for (;;) {
    const words = plainTokens(sampleMail(rng)[field]).filter((w): w is string => w !== null && w.length >= 4);
    if (words.length > 0) return rng.pick(words);
  }
}

/** 2-3 consecutive plain words of one real body: a phrase that exists in the index. */
export function pickMailPhrase(rng: Rng): string {
  const n = rng.int(2, 3);
  for (;;) {
    const tokens = plainTokens(sampleMail(rng).body);
    const starts = tokens.flatMap((_, i) => (tokens.slice(i, i + n).filter(Boolean).length === n ? [i] : []));
    if (starts.length > 0) {
      const at = rng.pick(starts);
      return tokens.slice(at, at + n).join(' ');
    }
  }
}

/** A week of the busy months (May-October 2002 hold 93% of the mail). */
function pickWeek(rng: Rng): { gte: string; lt: string } {
  const start = Date.UTC(2002, 4, 1) + rng.int(0, 25) * 7 * 86_400_000;
  return { gte: new Date(start).toISOString(), lt: new Date(start + 7 * 86_400_000).toISOString() };
}

export const MAIL_FAMILIES: readonly Family[] = [
  searchRow({
    id: 'mail.match',
    group: 'query',
    family: 'match',
    title: 'match on body: a word of a real message',
    request: (rng) => ({ query: { match: { body: pickWord(rng, 'body') } }, size: 10 }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'mail.multi_match',
    group: 'query',
    family: 'multi_match',
    title: 'multi_match over subject^2 and body: two words of real subjects',
    request: (rng) => ({
      query: {
        multi_match: {
          query: `${pickWord(rng, 'subject')} ${pickWord(rng, 'subject')}`,
          fields: ['subject^2', 'body'],
        },
      },
      size: 10,
    }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'mail.match_phrase',
    group: 'query',
    family: 'match_phrase',
    title: 'match_phrase on body: 2-3 consecutive words of a real message',
    request: (rng) => ({ query: { match_phrase: { body: pickMailPhrase(rng) } }, size: 10 }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'mail.bool_spam',
    group: 'query',
    family: 'bool',
    title: 'bool: a body word, filtered to spam or ham, not from the busiest list domain',
    request: (rng) => ({
      query: {
        bool: {
          must: [{ match: { body: pickWord(rng, 'body') } }],
          filter: [{ term: { spam: rng.pick([true, false]) } }],
          must_not: [{ term: { from_domain: 'spamassassin.taint.org' } }],
        },
      },
      size: 10,
    }),
    signal: totalAndScores,
  }),
  searchRow({
    id: 'mail.range_date',
    group: 'query',
    family: 'range',
    title: 'range on the sent date: a week of mid-2002, newest 10 (sort date, uid)',
    request: (rng) => ({
      query: { range: { date: pickWeek(rng) } },
      sort: [{ date: { order: 'desc' } }, { uid: { order: 'asc' } }],
      size: 10,
    }),
    signal: (response) => ({ total: totalOf(response), ids: idsOf(response) }),
  }),
  searchRow({
    id: 'mail.highlight',
    group: 'feature',
    family: 'highlight',
    title: 'highlight subject and body of the messages holding a subject word in either (first 10 by uid)',
    request: (rng) => ({
      query: { multi_match: { query: pickWord(rng, 'subject'), fields: ['subject', 'body'] } },
      sort: [{ uid: { order: 'asc' } }],
      size: 10,
      highlight: { fields: { subject: {}, body: {} } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      ids: idsOf(response),
      lists: { subject: highlightsOf(response, 'subject'), body: highlightsOf(response, 'body') },
    }),
  }),
  searchRow({
    id: 'mail.date_histogram_month',
    group: 'bucket',
    family: 'date_histogram',
    title: 'monthly spam or ham by sent date (calendar_interval month)',
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { spam: rng.pick([true, false]) } }] } },
      aggs: { per_month: { date_histogram: { field: 'date', calendar_interval: 'month' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_month: bucketsOf(response, 'per_month') },
    }),
  }),
  searchRow({
    id: 'mail.date_histogram_day',
    group: 'bucket',
    family: 'date_histogram',
    title: 'daily messages holding a body word (calendar_interval day)',
    request: (rng) => ({
      size: 0,
      query: { match: { body: pickWord(rng, 'body') } },
      aggs: { per_day: { date_histogram: { field: 'date', calendar_interval: 'day' } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { per_day: bucketsOf(response, 'per_day') },
    }),
  }),
  searchRow({
    id: 'mail.terms_domain',
    group: 'bucket',
    family: 'terms',
    title: "senders' domains of the messages holding a word (terms, every domain)",
    request: (rng) => ({
      size: 0,
      query: { match: { body: pickWord(rng, 'body') } },
      // 2000 is above the corpus's 1,315 domains: every bucket, no engine's cut decides.
      aggs: { domains: { terms: { field: 'from_domain', size: 2000 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { domains: bucketsOf(response, 'domains') },
    }),
  }),
  searchRow({
    id: 'mail.terms_domain_top',
    group: 'bucket',
    family: 'terms',
    title: "top 10 senders' domains of spam or ham (terms size 10: count desc, then key)",
    request: (rng) => ({
      size: 0,
      query: { bool: { filter: [{ term: { spam: rng.pick([true, false]) } }] } },
      aggs: { domains: { terms: { field: 'from_domain', size: 10 } } },
    }),
    signal: (response) => ({
      total: totalOf(response),
      buckets: { domains: bucketsOf(response, 'domains') },
    }),
  }),
];
