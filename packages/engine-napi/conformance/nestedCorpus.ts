/**
 * The nested-object corpus: blog posts whose `comments` are `nested` objects, each with
 * nested `replies`. Like `corpus.ts`, fixed and seeded, so case files can pin exact answers
 * (object counts, per-object matches that a flat object mapping would get wrong).
 */

import { rng } from './corpus.js';

export const NESTED_INDEX = 'conf_nested';

export const NESTED_MAPPING = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: {
    properties: {
      seq: { type: 'integer' },
      title: { type: 'keyword' },
      comments: {
        type: 'nested',
        properties: {
          author: { type: 'keyword' },
          stars: { type: 'integer' },
          text: { type: 'text' },
          at: { type: 'date' },
          replies: {
            type: 'nested',
            properties: { by: { type: 'keyword' }, likes: { type: 'integer' } },
          },
        },
      },
    },
  },
};

export const NESTED_DOC_COUNT = 60;

const AUTHORS = ['ann', 'bob', 'cid', 'dee', 'eve'];
const WORDS = ['great', 'post', 'bad', 'idea', 'thanks', 'wrong', 'nice', 'read'];
const START_MS = Date.UTC(2024, 2, 1);
const DAY_MS = 86_400_000;

export function nestedCorpus(): { id: string; source: Record<string, unknown> }[] {
  const next = rng(20261125);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: NESTED_DOC_COUNT }, (_, seq) => {
    const comments = Array.from({ length: Math.floor(next() * 4) }, () => {
      const replies = Array.from({ length: Math.floor(next() * 3) }, () => ({
        by: pick(AUTHORS),
        likes: Math.floor(next() * 10),
      }));
      const comment: Record<string, unknown> = {
        author: pick(AUTHORS),
        stars: 1 + Math.floor(next() * 5),
        text: `${pick(WORDS)} ${pick(WORDS)}`,
        at: new Date(START_MS + Math.floor(next() * 90) * DAY_MS).toISOString(),
      };
      if (replies.length > 0) comment.replies = replies;
      return comment;
    });
    const source: Record<string, unknown> = { seq, title: `post-${seq % 7}` };
    // Every 9th post has one comment as a bare object rather than an array.
    if (comments.length > 0) source.comments = seq % 9 === 0 ? comments[0] : comments;
    return { id: `post-${String(seq).padStart(2, '0')}`, source };
  });
}

export function nestedBulkBody(): string {
  return nestedCorpus()
    .map(
      (d) =>
        `${JSON.stringify({ index: { _index: NESTED_INDEX, _id: d.id } })}\n${JSON.stringify(d.source)}\n`,
    )
    .join('');
}
