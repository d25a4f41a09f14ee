import { CORPORA, type CorpusSpec, corpusById } from '../corpus/corpora.js';
import { FLIGHTS_FAMILIES } from './corpora/flights.js';
import { MAIL_FAMILIES } from './corpora/mail.js';
import { PLACES_FAMILIES } from './corpora/places.js';
import { PLACES_GEO_FAMILIES } from './corpora/places-geo.js';
import { WORDNET_FAMILIES } from './corpora/wordnet.js';
import { ALL_FAMILIES } from './index.js';
import type { Family } from './types.js';

/** A corpus and the read rows drawn from its values: what `--corpus <id>` runs. */
export interface Workload {
  corpus: CorpusSpec;
  families: readonly Family[];
}

const FAMILIES_OF: Record<string, readonly Family[]> = {
  'llm-telemetry': ALL_FAMILIES,
  wordnet: WORDNET_FAMILIES,
  places: PLACES_FAMILIES,
  'places-geo': PLACES_GEO_FAMILIES,
  mail: MAIL_FAMILIES,
  flights: FLIGHTS_FAMILIES,
};

export const WORKLOADS: readonly Workload[] = CORPORA.map((corpus) => ({
  corpus,
  families: FAMILIES_OF[corpus.id] ?? [],
}));

/** The workload for --corpus, or an error that lists the choices. */
export function workloadById(id: string): Workload {
  return { corpus: corpusById(id), families: FAMILIES_OF[id] ?? [] };
}
