import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo.js';
import type { ConformanceSummary, RestSuiteSummary } from './schema.js';
import { conformanceSchema, restSuiteSchema } from './summarySchemas.js';

/** Where `npm run conformance` commits Elasticsearch's REST suite results (its `summary` goes on cards). */
export const REST_SUITE_RESULTS = join(REPO_ROOT, 'packages', 'harness', 'restsuite', 'results.json');

/** Where the engine's differential conformance suite commits its summary. */
export const CONFORMANCE_RESULTS = join(REPO_ROOT, 'packages', 'engine-napi', 'conformance', 'results.json');

/**
 * The conformance summary committed beside the candidate this checkout builds, or why there is
 * none. Only for the candidate the harness started from this checkout: an engine given by URL or
 * a build of another revision did not take this suite.
 */
export function readConformance(file = CONFORMANCE_RESULTS): { summary?: ConformanceSummary; note?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { note: `no conformance summary (${(error as Error).message.split('\n')[0]})` };
  }
  const parsed = conformanceSchema.safeParse(raw);
  if (!parsed.success)
    return {
      note: `conformance summary not read: ${parsed.error.issues[0]?.message ?? 'invalid'} in ${file}`,
    };
  return { summary: raw as ConformanceSummary };
}

/** Elasticsearch's REST suite summary committed at this revision, or why there is none. */
export function readRestSuite(file = REST_SUITE_RESULTS): { summary?: RestSuiteSummary; note?: string } {
  let raw: unknown;
  try {
    raw = (JSON.parse(readFileSync(file, 'utf8')) as { summary?: unknown }).summary;
  } catch (error) {
    return { note: `no REST suite results (${(error as Error).message.split('\n')[0]})` };
  }
  const parsed = restSuiteSchema.safeParse(raw);
  if (!parsed.success)
    return {
      note: `REST suite results not read: ${parsed.error.issues[0]?.message ?? 'invalid'} in ${file}`,
    };
  return { summary: raw as RestSuiteSummary };
}
