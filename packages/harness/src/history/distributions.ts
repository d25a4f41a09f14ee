import {
  BIGINT,
  DOUBLE,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import type { RowResult, Scorecard } from '../scorecard/schema.js';
import { hdrDecode } from '../stats/hdr.js';

/** The sides a row measures, by the name the distributions and quantiles tables key them with. */
const ENGINES = ['candidate', 'baseline'] as const satisfies readonly (keyof RowResult)[];

/** A table's rows as columns: one typed list per column after run_id. */
interface Columns {
  names: string[];
  types: DuckDBType[];
  values: DuckDBValue[][];
}

function columns(names: string[], types: DuckDBType[]): Columns {
  return { names, types, values: names.map(() => []) };
}

/**
 * Every side's latency distribution in a run: its HDR histogram with the number of latencies in it
 * (distributions), and its ECDF as one row per quantile (quantiles), so SQL reads percentiles
 * without decoding HDR.
 */
function distributionColumns(card: Scorecard): { distributions: Columns; quantiles: Columns } {
  const distributions = columns(['row_id', 'engine', 'samples', 'hdr'], [VARCHAR, VARCHAR, BIGINT, VARCHAR]);
  const quantiles = columns(['row_id', 'engine', 'q', 'ms'], [VARCHAR, VARCHAR, DOUBLE, DOUBLE]);
  const push = (table: Columns, ...row: DuckDBValue[]) => {
    for (const [i, value] of row.entries()) table.values[i]?.push(value);
  };
  for (const row of card.rows) {
    for (const engine of ENGINES) {
      const side = row[engine];
      if (side.hdr !== undefined) push(distributions, row.id, engine, hdrDecode(side.hdr).count, side.hdr);
      const ecdf = side.ecdf;
      if (ecdf) for (const [i, q] of ecdf.q.entries()) push(quantiles, row.id, engine, q, ecdf.ms[i] ?? null);
    }
  }
  return { distributions, quantiles };
}

/**
 * One INSERT per table whatever the run's size: the columns are bound as typed lists and unnested
 * side by side (one INSERT per quantile would be thousands of statements per run). Typed, as the
 * rows table is: a whole-number double must stay a DOUBLE.
 */
async function insertColumns(conn: DuckDBConnection, table: string, runId: string, cols: Columns) {
  if ((cols.values[0]?.length ?? 0) === 0) return;
  const unnests = cols.names.map((_, i) => `unnest($${i + 2})`).join(', ');
  await conn.run(
    `INSERT INTO ${table} (run_id, ${cols.names.join(', ')}) SELECT $1, ${unnests}`,
    [runId, ...cols.values.map((v) => listValue(v))],
    [VARCHAR, ...cols.types.map((t) => LIST(t))],
  );
}

/** Insert a run's distributions and quantiles (the caller holds the transaction). */
export async function insertDistributions(conn: DuckDBConnection, card: Scorecard): Promise<void> {
  const { distributions, quantiles } = distributionColumns(card);
  await insertColumns(conn, 'distributions', card.runId, distributions);
  await insertColumns(conn, 'quantiles', card.runId, quantiles);
}
