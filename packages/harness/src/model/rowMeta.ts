import type { RowResult } from '../scorecard/schema.js';

/** What a row is, without any measurement: enough to record it when an engine died during it. */
export type RowMeta = Pick<RowResult, 'id' | 'group' | 'family' | 'title' | 'unit' | 'betterIs'>;
