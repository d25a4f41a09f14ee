/**
 * Text-analysis APIs through the service: `_analyze` (built-in and index-defined analyzers,
 * `explain`, the token limit), suggesters in `_search` (term, phrase, completion with contexts,
 * `typed_keys`, several indices), `_field_caps`, `_validate/query` and `_termvectors`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, req, startServer } from './server-process.js';

describe('text-analysis APIs', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-text-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('analyzes with built-in components, explains each stage and enforces the token limit', async () => {
    const basic = await req(server.url, 'POST', '/_analyze', { text: 'Foo Bar' });
    expect(basic.status).toBe(200);
    expect(basic.json.tokens.map((t: { token: string }) => t.token)).toEqual(['foo', 'bar']);
    const explained = await req(server.url, 'POST', '/_analyze', {
      text: 'foo bar buzz',
      tokenizer: 'standard',
      explain: true,
      filter: [{ type: 'stop', stopwords: ['foo', 'buzz'] }],
    });
    expect(explained.json.detail.tokenizer.tokens).toHaveLength(3);
    expect(explained.json.detail.tokenfilters[0].tokens[0].token).toBe('bar');
    const created = await req(server.url, 'PUT', '/analyzed', {
      settings: {
        'index.analyze.max_token_count': 3,
        analysis: { analyzer: { lower_ws: { tokenizer: 'whitespace', filter: ['lowercase'] } } },
      },
    });
    expect(created.status).toBe(200);
    const custom = await req(server.url, 'POST', '/analyzed/_analyze', {
      text: 'A-B C',
      analyzer: 'lower_ws',
    });
    expect(custom.json.tokens.map((t: { token: string }) => t.token)).toEqual(['a-b', 'c']);
    const tooMany = await req(server.url, 'POST', '/analyzed/_analyze', { text: 'a b c d' });
    expect(tooMany.json.error.type).toBe('illegal_state_exception');
    const unknown = await req(server.url, 'POST', '/_analyze', { text: 'a', analyzer: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('failed to find global analyzer [nope]');
  });

  it('suggests completions with weights, contexts and typed keys, and corrects terms', async () => {
    await req(server.url, 'PUT', '/sugg', {
      mappings: {
        properties: {
          body: { type: 'text' },
          s: { type: 'completion', contexts: [{ name: 'color', type: 'category' }] },
        },
      },
    });
    await req(server.url, 'PUT', '/sugg/_doc/1', {
      body: 'Amsterdam meetup',
      s: { input: 'foo red', weight: 2, contexts: { color: 'red' } },
    });
    await req(server.url, 'PUT', '/sugg/_doc/2?refresh=true', {
      body: 'Berlin',
      s: { input: 'foo blue', weight: 5, contexts: { color: 'blue' } },
    });
    const missing = await req(server.url, 'PUT', '/sugg/_doc/3', { s: 'no context' });
    expect(missing.json.error.reason).toBe('Contexts are mandatory in context enabled completion field [s]');
    const res = await req(server.url, 'POST', '/sugg/_search?typed_keys=true', {
      size: 0,
      suggest: {
        c: { prefix: 'fo', completion: { field: 's', contexts: { color: ['red', 'blue'] } } },
        t: { text: 'amsterdma', term: { field: 'body' } },
      },
    });
    expect(res.status).toBe(200);
    const options = res.json.suggest['completion#c'][0].options;
    expect(options.map((o: { text: string }) => o.text)).toEqual(['foo blue', 'foo red']);
    expect(options[0]._score).toBe(5);
    expect(options[0]._source.body).toBe('Berlin');
    expect(res.json.suggest['term#t'][0].options[0].text).toBe('amsterdam');
    const noContext = await req(server.url, 'POST', '/sugg/_search', {
      suggest: { c: { prefix: 'fo', completion: { field: 's' } } },
    });
    expect(noContext.status).toBe(400);
    expect(JSON.stringify(noContext.json)).toContain('Missing mandatory contexts in context query');
  });

  it('reports field capabilities across indices and validates queries', async () => {
    await req(server.url, 'PUT', '/caps1', {
      mappings: { properties: { n: { type: 'double' }, t: { type: 'text' } } },
    });
    await req(server.url, 'PUT', '/caps2', { mappings: { properties: { n: { type: 'long' } } } });
    const caps = await req(server.url, 'GET', '/caps1,caps2/_field_caps?fields=n,t&include_unmapped=true');
    expect(caps.json.indices).toEqual(['caps1', 'caps2']);
    expect(caps.json.fields.n.double).toEqual({
      type: 'double',
      searchable: true,
      aggregatable: true,
      indices: ['caps1'],
    });
    expect(caps.json.fields.t.unmapped.indices).toEqual(['caps2']);
    const valid = await req(server.url, 'GET', '/caps1/_validate/query?explain=true');
    expect(valid.json.valid).toBe(true);
    expect(valid.json.explanations[0].explanation).toBe('*:*');
    const invalid = await req(server.url, 'POST', '/caps1/_validate/query?explain=true', {
      query: { boool: {} },
    });
    expect(invalid.json.valid).toBe(false);
    expect(invalid.json.error).toContain('unknown query [boool] did you mean [bool]?');
  });

  it('computes term vectors from the source', async () => {
    await req(server.url, 'PUT', '/tv', {
      mappings: { properties: { text: { type: 'text', term_vector: 'with_positions_offsets' } } },
    });
    await req(server.url, 'PUT', '/tv/_doc/1?refresh=true', { text: 'The quick brown fox is brown.' });
    const tv = await req(server.url, 'GET', '/tv/_termvectors/1?term_statistics=true');
    expect(tv.json.found).toBe(true);
    const text = tv.json.term_vectors.text;
    expect(text.field_statistics).toEqual({ sum_doc_freq: 5, doc_count: 1, sum_ttf: 6 });
    expect(text.terms.brown.term_freq).toBe(2);
    expect(text.terms.brown.tokens[0]).toEqual({ position: 2, start_offset: 10, end_offset: 15 });
    expect(text.terms.brown.doc_freq).toBe(1);
  });
});
