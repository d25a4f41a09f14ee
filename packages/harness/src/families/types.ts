import type { Rng } from '../rng.js';

/** One bucket of a bucket aggregation, reduced to what must agree across engines. */
export interface BucketSignal {
  key: string | number;
  docCount: number;
  metrics?: Record<string, number | null>;
}

/**
 * What a response must agree on across engines for the row's timing to be comparable.
 * Only deterministic parts go in: scored hit order is engine-specific and is left out.
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
}

export type FamilyGroup = 'query' | 'metric' | 'bucket';

export interface Family {
  /** Stable row id across runs, e.g. "query.term". */
  id: string;
  group: FamilyGroup;
  /** Family name as the schema means it: the ES feature being exercised. */
  family: string;
  title: string;
  endpoint: '_search' | '_count';
  /** A request body with parameters drawn from values that exist in the corpus. */
  request(rng: Rng): Record<string, unknown>;
  signal(response: unknown): Signal;
}
