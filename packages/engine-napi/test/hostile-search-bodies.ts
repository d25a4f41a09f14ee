/**
 * fast-check arbitraries for search bodies: hostile ones (wrong types at every level, unknown
 * query and aggregation types, awkward scalars) and plausible ones (well-formed, one edge
 * value at a time, so they get past parsing into planning and execution).
 */
import fc from 'fast-check';

const FIELDS = ['k', 'n', 'f', 'd', 't', 'b', 'missing', '_id', '_source', '*', '', 'k.raw', 't^3', 'n,k'];
const QUERY_TYPES = [
  'match_all',
  'match_none',
  'term',
  'terms',
  'range',
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'multi_match',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'exists',
  'ids',
  'constant_score',
  'dis_max',
  'bool',
  'boosting',
  'query_string',
  'simple_query_string',
  'nested',
  'script',
  'geo_distance',
  'knn',
  'no_such_query',
  '',
];
const AGG_TYPES = [
  'terms',
  'avg',
  'sum',
  'min',
  'max',
  'stats',
  'extended_stats',
  'value_count',
  'cardinality',
  'histogram',
  'date_histogram',
  'range',
  'date_range',
  'missing',
  'filter',
  'filters',
  'percentiles',
  'composite',
  'top_hits',
  'bucket_sort',
  'no_such_agg',
];
const OPTION_KEYS = [
  'value',
  'values',
  'query',
  'field',
  'fields',
  'boost',
  'gt',
  'gte',
  'lt',
  'lte',
  'from',
  'to',
  'format',
  'time_zone',
  'operator',
  'minimum_should_match',
  'fuzziness',
  'prefix_length',
  'max_expansions',
  'transpositions',
  'slop',
  'flags',
  'case_insensitive',
  'tie_breaker',
  'type',
  'size',
  'interval',
  'calendar_interval',
  'fixed_interval',
  'min_doc_count',
  'order',
  'ranges',
  'keyed',
  'missing',
  'filter',
  'filters',
  'must',
  'should',
  'must_not',
  'queries',
  'max_determinized_states',
  'rewrite',
  'unknown_option',
];

/** Scalars and awkward values: huge and tiny numbers, NaN-like strings, odd Unicode. */
export const awkwardScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    1e308,
    -1e308,
    2 ** 63,
    -(2 ** 63),
    2 ** 31,
    -1,
    0,
    5e-324,
    'NaN',
    'Infinity',
    '-0',
    '9'.repeat(40),
    '2024-13-45',
    'now-1000000y',
    'now+1d/x',
    '2024-01-01||+1M/d',
    '||',
    '\u0000',
    '\ud800',
  ),
);

export const anyJson: fc.Arbitrary<unknown> = fc.oneof(awkwardScalar, fc.jsonValue({ maxDepth: 3 }));

/** Regexp-ish strings, heavy on metacharacters and Lucene's optional operators. */
const regexpish = fc
  .array(fc.constantFrom(...'ab.*+?|()[]{}^$\\&~<>@#"-0123456789,'.split('')), { maxLength: 40 })
  .map((cs) => cs.join(''));

export const dateish = fc.oneof(
  awkwardScalar,
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2024-01-01', '01/02/2024', '2024-01-01T25:61:61Z', 'now', 'now-1d/d', '2024'),
);

const options: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.constantFrom(...OPTION_KEYS),
  anyJson,
  {
    maxKeys: 4,
  },
);

const leafQuery: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .record({ type: fc.constantFrom(...QUERY_TYPES), field: fc.constantFrom(...FIELDS), body: anyJson })
    .map(({ type, field, body }) => ({ [type]: { [field]: body } })),
  fc
    .record({ type: fc.constantFrom(...QUERY_TYPES), field: fc.constantFrom(...FIELDS), body: options })
    .map(({ type, field, body }) => ({ [type]: { [field]: body } })),
  fc
    .record({ type: fc.constantFrom(...QUERY_TYPES), body: options })
    .map(({ type, body }) => ({ [type]: body })),
  regexpish.map((r) => ({ regexp: { k: r } })),
  fc
    .record({
      value: regexpish,
      flags: fc.oneof(fc.constantFrom('ALL', 'NONE', 'COMPLEMENT|INTERVAL'), anyJson),
    })
    .map((o) => ({ regexp: { t: o } })),
  regexpish.map((w) => ({ wildcard: { k: { value: w } } })),
  fc.record({ value: fc.string({ maxLength: 300 }), fuzziness: anyJson }).map((o) => ({ fuzzy: { t: o } })),
  fc
    .record({ gte: dateish, lt: dateish, format: fc.oneof(fc.string({ maxLength: 12 }), awkwardScalar) })
    .map((o) => ({ range: { d: o } })),
  fc.array(awkwardScalar, { maxLength: 30 }).map((values) => ({ terms: { k: values } })),
  anyJson,
);

/** Queries up to a few levels of compound nesting, wrong types allowed anywhere. */
const query: fc.Arbitrary<unknown> = fc.letrec<{ q: unknown }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafQuery,
    fc
      .record(
        {
          must: fc.oneof(tie('q'), fc.array(tie('q'), { maxLength: 3 })),
          should: fc.array(tie('q'), { maxLength: 3 }),
          filter: fc.oneof(tie('q'), anyJson),
          must_not: fc.array(tie('q'), { maxLength: 2 }),
          minimum_should_match: awkwardScalar,
        },
        { requiredKeys: [] },
      )
      .map((b) => ({ bool: b })),
    fc.record({ filter: tie('q'), boost: awkwardScalar }).map((c) => ({ constant_score: c })),
    fc.record({ queries: fc.array(tie('q'), { maxLength: 3 }), tie_breaker: awkwardScalar }).map((d) => ({
      dis_max: d,
    })),
  ),
})).q;

const aggParams: fc.Arbitrary<unknown> = fc.oneof(
  options,
  fc.record({ field: fc.constantFrom(...FIELDS), interval: awkwardScalar }),
  fc.record({
    field: fc.constantFrom('d', 'n'),
    calendar_interval: fc.oneof(awkwardScalar, fc.constantFrom('1d', 'month', '1q', '2w')),
  }),
  fc.record({
    field: fc.constantFrom('d', 'n'),
    fixed_interval: fc.oneof(awkwardScalar, fc.constantFrom('1ms', '0s', '-1d', '1000000d')),
  }),
  fc.record({
    field: fc.constantFrom('k', 'n'),
    size: awkwardScalar,
    order: anyJson,
    min_doc_count: awkwardScalar,
  }),
  fc.record({ field: fc.constantFrom('n', 'f', 'd'), ranges: fc.array(anyJson, { maxLength: 5 }) }),
  anyJson,
);

const aggs: fc.Arbitrary<unknown> = fc.letrec<{ a: unknown }>((tie) => ({
  a: fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('a', 'b', '', '[x]', '>')),
    fc.oneof(
      { depthSize: 'small' },
      fc.record({ type: fc.constantFrom(...AGG_TYPES), params: aggParams }).map(({ type, params }) => ({
        [type]: params,
      })),
      fc
        .record({ type: fc.constantFrom(...AGG_TYPES), params: aggParams, sub: tie('a') })
        .map(({ type, params, sub }) => ({ [type]: params, aggs: sub })),
      anyJson,
    ),
    { maxKeys: 3 },
  ),
})).a;

export const searchBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    query,
    aggs,
    size: awkwardScalar,
    from: awkwardScalar,
    sort: fc.oneof(
      fc.constantFrom(...FIELDS),
      fc.array(fc.oneof(fc.constantFrom(...FIELDS), anyJson), { maxLength: 3 }),
      anyJson,
    ),
    _source: anyJson,
    track_total_hits: awkwardScalar,
    search_after: fc.oneof(fc.array(awkwardScalar, { maxLength: 3 }), anyJson),
    timeout: awkwardScalar,
    unknown_top_level: anyJson,
  },
  { requiredKeys: [] },
);

/** Edge numbers that are still well-typed: they get past parsing into planning and execution. */
const edgeNumber = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(
    1e-9,
    0.001,
    1e15,
    -1e15,
    2 ** 53,
    9.2e18,
    -9.2e18,
    1e300,
    2147483647,
    65535,
    65536,
    10000,
    10001,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const edgeDate = fc.oneof(
  fc.constantFrom('1970-01-01', '0001-01-01', '9999-12-31T23:59:59Z', 'now-100y', 'now+100y/y', '2024-02-30'),
  fc.integer().map(String),
  fc.constantFrom(-8.64e15, 8.64e15, 0),
);

/** Well-formed queries with edge values: mostly valid, so the engine plans and runs them. */
const plausibleQuery: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ match_all: {} }),
  fc.record({ gte: edgeNumber, lt: edgeNumber }).map((r) => ({ range: { n: r } })),
  fc.record({ gte: edgeDate, lte: edgeDate }).map((r) => ({ range: { d: r } })),
  fc.string({ maxLength: 30 }).map((v) => ({ term: { k: v } })),
  edgeNumber.map((v) => ({ term: { n: v } })),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 50 }).map((vs) => ({ terms: { k: vs } })),
  fc.string({ maxLength: 60 }).map((q) => ({ match: { t: { query: q, operator: 'and' } } })),
  fc
    .record({ q: fc.string({ maxLength: 40 }), slop: fc.integer({ min: 0, max: 1000 }) })
    .map(({ q, slop }) => ({
      match_phrase: { t: { query: q, slop } },
    })),
  regexpish.map((r) => ({ regexp: { k: { value: r } } })),
  regexpish.map((w) => ({ wildcard: { t: { value: w } } })),
  regexpish.map((p) => ({ prefix: { k: { value: p } } })),
  fc
    .record({ v: fc.string({ maxLength: 200 }), f: fc.constantFrom(0, 1, 2, 'AUTO'), p: fc.nat(300) })
    .map(({ v, f, p }) => ({ fuzzy: { t: { value: v, fuzziness: f, prefix_length: p } } })),
  fc.array(fc.string({ maxLength: 600 }), { maxLength: 20 }).map((values) => ({ ids: { values } })),
  fc.constantFrom('k', 't', 'n', 'missing').map((field) => ({ exists: { field } })),
);

const plausibleAgg: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc
    .record({ field: fc.constantFrom('k', 'n', 'b'), size: fc.oneof(edgeNumber, fc.nat(70_000)) })
    .map((t) => ({ terms: t })),
  fc.record({ field: fc.constantFrom('n', 'f'), interval: edgeNumber }).map((h) => ({ histogram: h })),
  fc.constantFrom('1ms', '1s', '1m', '1h', '1d', '7d', '100000d').map((i) => ({
    date_histogram: { field: 'd', fixed_interval: i },
  })),
  fc.constantFrom('minute', 'hour', 'day', 'week', 'month', 'quarter', 'year').map((i) => ({
    date_histogram: { field: 'd', calendar_interval: i, min_doc_count: 0 },
  })),
  fc
    .array(fc.record({ from: edgeNumber, to: edgeNumber }, { requiredKeys: [] }), { maxLength: 5 })
    .map((ranges) => ({
      range: { field: 'n', ranges },
    })),
  fc
    .constantFrom('avg', 'sum', 'min', 'max', 'stats', 'extended_stats', 'cardinality', 'value_count')
    .chain((type) => fc.constantFrom('n', 'f', 'd', 'k', 'b', 't').map((field) => ({ [type]: { field } }))),
);

const plausibleAggs: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(plausibleAgg, fc.option(plausibleAgg, { freq: 3 })), { minLength: 1, maxLength: 3 })
  .map((list) =>
    Object.fromEntries(
      list.map(([agg, sub], i) => [`a${i}`, sub === null ? agg : { ...agg, aggs: { s: sub } }]),
    ),
  );

/** Mostly well-formed values with an edge case one time in `edgeOdds`. */
function usually<T>(good: fc.Arbitrary<T>, edge: fc.Arbitrary<T>, edgeOdds = 6): fc.Arbitrary<T> {
  return fc.oneof({ weight: edgeOdds - 1, arbitrary: good }, { weight: 1, arbitrary: edge });
}

/** A key left out one time in `odds`. */
function sometimes<T>(value: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | undefined> {
  return fc.option(value, { nil: undefined, freq: odds });
}

const sortClause = fc
  .record({
    field: usually(
      fc.constantFrom('n', 'k', 'd', 'f', '_score', '_doc'),
      fc.constantFrom('t', 'missing', 'b'),
    ),
    order: fc.constantFrom('asc', 'desc'),
  })
  .map(({ field, order }) => ({ [field]: order }));

/**
 * Search bodies that are mostly valid, one edge value at a time, so a good share reaches
 * planning and execution (hit collection, sorting, search_after, aggregation rendering).
 */
export const plausibleSearch: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    query: sometimes(
      fc.oneof(
        plausibleQuery,
        fc.array(plausibleQuery, { maxLength: 4 }).map((must) => ({ bool: { must, should: must.slice(1) } })),
      ),
      2,
    ),
    aggs: sometimes(plausibleAggs, 2),
    size: sometimes(usually(fc.nat(20), edgeNumber), 2),
    from: sometimes(usually(fc.nat(20), edgeNumber), 3),
    sort: sometimes(fc.array(sortClause, { minLength: 1, maxLength: 4 }), 2),
    track_total_hits: sometimes(usually<unknown>(fc.boolean(), edgeNumber), 4),
    _source: sometimes(
      fc.oneof(fc.boolean(), fc.constantFrom('k', '*', ['n', 't*'], { includes: ['*'], excludes: ['k'] })),
      4,
    ),
    search_after: sometimes(
      fc.array(
        usually(
          fc.oneof(fc.integer(), fc.constantFrom('k3', '2024-01-01')),
          fc.oneof(edgeNumber, fc.constant(null)),
        ),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      4,
    ),
  })
  .chain((body) =>
    // Mostly line search_after up with the sort (one value per key, no `from`), as real paging does.
    fc.nat(5).map((edge) => {
      const out: Record<string, unknown> = Object.fromEntries(
        Object.entries(body).filter(([, v]) => v !== undefined),
      );
      const after = body.search_after;
      if (after && edge > 0) {
        out.sort = body.sort ?? [{ n: 'asc' }];
        out.search_after = (out.sort as unknown[]).map((_, i) => after[i % after.length]);
        delete out.from;
      }
      return out;
    }),
  );
