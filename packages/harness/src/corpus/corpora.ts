import {
  FLIGHTS_CORPUS_NAME,
  FLIGHTS_INDEX,
  FLIGHTS_INDEX_BODY,
  FLIGHTS_ROWS,
  flightsCorpus,
} from './flights.js';
import { CORPUS_NAME, generateCorpus } from './generate.js';
import { MAIL_CORPUS_NAME, MAIL_COUNT, MAIL_INDEX, MAIL_INDEX_BODY, mailCorpus } from './mail.js';
import { INDEX_BODY, INDEX_NAME } from './mapping.js';
import {
  geoPlacesCorpus,
  PLACES_CORPUS_NAME,
  PLACES_COUNT,
  PLACES_GEO_CORPUS_NAME,
  PLACES_GEO_INDEX,
  PLACES_GEO_INDEX_BODY,
  PLACES_INDEX,
  PLACES_INDEX_BODY,
  placesCorpus,
} from './places.js';
import { WORDNET_CORPUS_NAME, WORDNET_INDEX, WORDNET_INDEX_BODY, wordnetCorpus } from './wordnet.js';

/** A corpus the bench can run on (`--corpus <id>`): its documents and its index (its rows: families/workloads.ts). */
export interface CorpusSpec {
  /** What --corpus takes. */
  id: string;
  /** Recorded in the manifest: runs are comparable only on the same corpus name. */
  name: string;
  index: string;
  indexBody: object;
  /** Deterministic in (seed, docs): the content hash in the manifest proves both engines got the same. */
  documents(seed: number, docs: number): Iterable<{ id: string; source: object }>;
  /** A real corpus has as many documents as it has; a generated one has no limit. */
  maxDocs?: number;
}

export const CORPORA: readonly CorpusSpec[] = [
  {
    id: 'llm-telemetry',
    name: CORPUS_NAME,
    index: INDEX_NAME,
    indexBody: INDEX_BODY,
    documents: generateCorpus,
  },
  {
    id: 'wordnet',
    name: WORDNET_CORPUS_NAME,
    index: WORDNET_INDEX,
    indexBody: WORDNET_INDEX_BODY,
    documents: (_seed, docs) => wordnetCorpus(docs),
    maxDocs: 117_791,
  },
  {
    id: 'places',
    name: PLACES_CORPUS_NAME,
    index: PLACES_INDEX,
    indexBody: PLACES_INDEX_BODY,
    documents: (_seed, docs) => placesCorpus(docs),
    maxDocs: PLACES_COUNT,
  },
  {
    id: 'places-geo',
    name: PLACES_GEO_CORPUS_NAME,
    index: PLACES_GEO_INDEX,
    indexBody: PLACES_GEO_INDEX_BODY,
    documents: (_seed, docs) => geoPlacesCorpus(docs),
    maxDocs: PLACES_COUNT,
  },
  {
    id: 'mail',
    name: MAIL_CORPUS_NAME,
    index: MAIL_INDEX,
    indexBody: MAIL_INDEX_BODY,
    documents: (_seed, docs) => mailCorpus(docs),
    maxDocs: MAIL_COUNT,
  },
  {
    id: 'flights',
    name: FLIGHTS_CORPUS_NAME,
    index: FLIGHTS_INDEX,
    indexBody: FLIGHTS_INDEX_BODY,
    documents: (_seed, docs) => flightsCorpus(docs),
    maxDocs: FLIGHTS_ROWS,
  },
];

/** The corpus for --corpus, or an error that lists the choices. */
export function corpusById(id: string): CorpusSpec {
  const spec = CORPORA.find((c) => c.id === id);
  if (!spec)
    throw new Error(`--corpus ${id} is not a corpus: use one of ${CORPORA.map((c) => c.id).join(', ')}`);
  return spec;
}

/** The corpus a scorecard's manifest names: its versioned name (llm-telemetry-v1), not its --corpus id. */
export function corpusByName(name: string): CorpusSpec {
  const spec = CORPORA.find((c) => c.name === name);
  if (!spec)
    throw new Error(
      `corpus ${name} is not one this harness generates: ${CORPORA.map((c) => c.name).join(', ')}`,
    );
  return spec;
}
