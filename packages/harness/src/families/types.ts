import type { Rng } from '../rng.js';

/** One bucket of a bucket aggregation, reduced to what must agree across engines. */
export interface BucketSignal {
  key: string | number;
  docCount: number;
  metrics?: Record<string, number | null>;
}

/**
 * What a response must agree on across engines for the row's timing to be comparable.
 * Only deterministic parts go in: the order of hits with equal scores is engine-specific.
 */
export interface Signal {
  total?: { value: number; relation: string };
  /** `_count` responses. */
  count?: number;
  /** Hit ids in order; only for a sort on a unique field. */
  ids?: string[];
  /** The sort field's values in hit order, for sorts that may tie (ids would be ambiguous). */
  sortValues?: unknown[];
  metrics?: Record<string, number | null>;
  /** Aggregation name -> non-empty buckets, in key order. */
  buckets?: Record<string, BucketSignal[]>;
  /**
   * Relative tolerance per entry of `metrics` for approximate algorithms (percentiles,
   * cardinality): the engines may use different sketches, so exact agreement is not owed.
   * Metrics not named here use the default 1e-6.
   */
  tolerances?: Record<string, number>;
  /**
   * A scored page: each hit's id and score, in hit order. Scores must agree to float precision
   * and so must the ids of every run of tied scores but the last (the page may cut it anywhere);
   * both engines score on the baseline's scale (corpus/similarity.ts).
   */
  scored?: { id: string; score: number }[];
  /** Named ordered lists that must agree exactly: top_hits ids, filtered sources, _mget docs. */
  lists?: Record<string, readonly (string | number | boolean | null)[]>;
}

export type FamilyGroup = 'query' | 'metric' | 'bucket' | 'feature';

export interface Family {
  /** Stable row id across runs, e.g. "query.term". */
  id: string;
  group: FamilyGroup;
  /** Family name as the schema means it: the ES feature being exercised. */
  family: string;
  title: string;
  /**
   * Where the body goes. `_msearch` bodies are `{ searches: [search body, ...] }`, sent as NDJSON
   * with an empty header per search; `_mget` bodies go as they are.
   */
  endpoint: '_search' | '_count' | '_mget' | '_msearch';
  /** A request body with parameters drawn from values that exist in the corpus. */
  request(rng: Rng): Record<string, unknown>;
  /**
   * A breadth row (feature coverage rather than a headline number): it runs a third of
   * --iterations and half of --prewarm, so the default run stays near six minutes on two cores.
   */
  breadth?: true;
  signal(response: unknown): Signal;
}
