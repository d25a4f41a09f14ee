import { ingestCell } from '../../measure/ingestClients.js';
import type { IngestCellRaw } from '../../model/raw.js';
import { clientCounts } from '../../model/settings.js';
import type { Role } from '../../scorecard/schema.js';
import { ingestCellRowId, ingestCellRowResult } from '../../verdict/ingestCellRowResult.js';
import type { RowKind } from '../kind.js';

/**
 * ingest.<n>-clients: the corpus again through n concurrent bulk clients into a fresh index, one
 * engine at a time, the order alternating per cell. Last, so no read row sees those indexes.
 */
interface CellRaw {
  clients: number;
  sides: Record<Role, IngestCellRaw>;
}

export const ingestCellsKind: RowKind<{ clients: number; k: number }, CellRaw> = {
  name: 'ingest',
  phase: 'ingestCells',
  placement: 'load',
  select: (ctx) =>
    clientCounts(ctx.settings)
      .filter((n) => n > 1)
      .map((clients, k) => ({ clients, k })),
  meta: ({ clients }, ctx) => ({
    id: ingestCellRowId(clients),
    group: 'ingest',
    family: 'bulk',
    title: `bulk ingest of ${ctx.corpus.docs} docs, ${clients} concurrent clients, ${ctx.settings.bulkSize} docs/bulk, fresh index, until refreshed`,
    unit: 'docs/s',
    betterIs: 'higher',
  }),
  async measure({ clients, k }, ctx, step) {
    const order = k % 2 === 0 ? (['candidate', 'baseline'] as const) : (['baseline', 'candidate'] as const);
    const raw = {} as Record<Role, IngestCellRaw>;
    for (const role of order) {
      step(`${role} ${clients} clients`);
      raw[role] = await ingestCell(ctx.sides[role], ctx.corpus, clients, ctx.settings);
      ctx.sides[role].check();
    }
    return { clients, sides: raw };
  },
  judge: (raw, ctx) =>
    ingestCellRowResult(
      raw.sides,
      raw.clients,
      ctx.corpus.docs,
      ctx.corpus.batches.length,
      ctx.settings.bulkSize,
      ctx.settings.singleMeasurementMargin,
    ),
};
