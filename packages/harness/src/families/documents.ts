import { pickDocIds, pickModel, pickTenant, pickWindow } from './params.js';
import { arr, obj, totalOf } from './signals/core.js';
import { canonicalJson } from './signals/hits.js';
import type { Family } from './types.js';

/** Many documents or searches in one request: _mget by id, _msearch of a dashboard's searches. */

export const DOCUMENT_ROWS: readonly Family[] = [
  {
    id: 'feature.mget',
    group: 'feature',
    breadth: true,
    family: '_mget',
    title: '_mget of 5-50 event ids',
    endpoint: '_mget',
    request: (rng) => ({ ids: pickDocIds(rng, rng.int(5, 50)) }),
    signal: (response) => ({
      lists: {
        docs: arr(obj(response, 'body').docs, 'docs').map((d, i) => {
          const doc = obj(d, `docs[${i}]`);
          return `${String(doc._id)} ${doc.found === true ? canonicalJson(doc._source) : 'not found'}`;
        }),
      },
    }),
  },
  {
    id: 'feature.msearch',
    group: 'feature',
    breadth: true,
    family: '_msearch',
    title: '_msearch of 4 dashboard searches (tenant, model, window, tenant x window)',
    endpoint: '_msearch',
    request: (rng) => {
      const window = pickWindow(rng, 1, 24);
      const tenant = pickTenant(rng);
      return {
        searches: [
          { query: { term: { tenant } }, size: 0 },
          { query: { term: { model: pickModel(rng) } }, size: 0 },
          { query: { range: { '@timestamp': window } }, size: 0 },
          {
            query: { bool: { filter: [{ term: { tenant } }, { range: { '@timestamp': window } }] } },
            size: 0,
          },
        ],
      };
    },
    signal: (response) => ({
      lists: {
        totals: arr(obj(response, 'body').responses, 'responses').map((r, i) => {
          const error = obj(r, `responses[${i}]`).error;
          return error === undefined ? totalOf(r).value : `error: ${canonicalJson(error)}`;
        }),
      },
    }),
  },
];
