/**
 * Text-analysis and field-introspection routes: `_analyze`, `_termvectors`, `_mtermvectors`,
 * `_field_caps`, `_validate/query`.
 * The engine parses and answers; these only route.
 */
import type { Route } from './route.js';

const RESOLVE_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const FIELD_CAPS_PARAMS = ['fields', 'include_unmapped', ...RESOLVE_PARAMS];
const TERMVECTORS_PARAMS = [
  'fields',
  'field_statistics',
  'offsets',
  'payloads',
  'positions',
  'term_statistics',
  'realtime',
  'routing',
  'version',
  'version_type',
  'preference',
];
const VALIDATE_PARAMS = [
  'explain',
  'rewrite',
  'all_shards',
  'q',
  'df',
  'default_operator',
  'analyzer',
  'analyze_wildcard',
  'lenient',
  ...RESOLVE_PARAMS,
];

export const textRoutes: Route[] = [
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_termvectors'],
    params: TERMVECTORS_PARAMS,
    handler: (e, req, v) => e.termvectors(v.index ?? '', undefined, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_termvectors', ':id'],
    params: TERMVECTORS_PARAMS,
    handler: (e, req, v) => e.termvectors(v.index ?? '', v.id, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: ['_mtermvectors'],
    params: ['ids', ...TERMVECTORS_PARAMS],
    handler: (e, req) => e.mtermvectors(undefined, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_mtermvectors'],
    params: ['ids', ...TERMVECTORS_PARAMS],
    handler: (e, req, v) => e.mtermvectors(v.index, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: ['_analyze'],
    params: [],
    handler: (e, req) => e.analyze(undefined, req.body),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_analyze'],
    params: [],
    handler: (e, req, v) => e.analyze(v.index, req.body),
  },
  {
    methods: ['GET', 'POST'],
    pattern: ['_field_caps'],
    params: FIELD_CAPS_PARAMS,
    handler: (e, req) => e.fieldCaps(undefined, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_field_caps'],
    params: FIELD_CAPS_PARAMS,
    handler: (e, req, v) => e.fieldCaps(v.index, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: ['_validate', 'query'],
    params: VALIDATE_PARAMS,
    handler: (e, req) => e.validateQuery(undefined, req.body, req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_validate', 'query'],
    params: VALIDATE_PARAMS,
    handler: (e, req, v) => e.validateQuery(v.index, req.body, req.params),
  },
];
