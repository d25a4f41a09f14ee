import { createHash } from 'node:crypto';
import type { Family } from '../../src/families/types.js';
import { Rng } from '../../src/rng.js';

/** The seed and number of request bodies a row's pin covers. */
const SEED = 20_261_126;
const BODIES = 6;

export interface Pin {
  id: string;
  hash: string;
}

/**
 * A row as a run sends it: its metadata and the first BODIES request bodies it draws for a fixed
 * seed (the stream derived per row and round, as the read phase derives it), hashed.
 */
export function pinOf(f: Family): Pin {
  const rng = Rng.derive(SEED, f.id, 0);
  const bodies = Array.from({ length: BODIES }, () => f.request(rng));
  const meta = {
    id: f.id,
    group: f.group,
    family: f.family,
    title: f.title,
    endpoint: f.endpoint,
    breadth: f.breadth ?? false,
  };
  const hash = createHash('sha256').update(JSON.stringify({ meta, bodies })).digest('hex').slice(0, 16);
  return { id: f.id, hash };
}
