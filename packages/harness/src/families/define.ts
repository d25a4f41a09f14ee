import type { Family, FamilyGroup } from './types.js';

/** What a row states itself: all but its group, its endpoint (a search) and its breadth flag. */
export type RowSpec = Omit<Family, 'group' | 'endpoint' | 'breadth'>;

/** A breadth row (see `Family.breadth`) of one group, sent to `_search`. */
const breadthRow =
  (group: FamilyGroup) =>
  (f: RowSpec): Family => ({ ...f, group, endpoint: '_search', breadth: true });

export const breadthQuery = breadthRow('query');
export const breadthMetric = breadthRow('metric');
export const breadthBucket = breadthRow('bucket');

/** A row sent to `_search`, stating its own group (and breadth, if any). */
export const searchRow = (f: Omit<Family, 'endpoint'>): Family => ({ ...f, endpoint: '_search' });
