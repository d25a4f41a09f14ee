import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A large structured corpus: the 3,000,000 US domestic flights of January-June 2001 in
 * `flights-3m.parquet`, the largest flights file of the npm package `vega-datasets` (BSD-3-Clause;
 * the records are the U.S. Bureau of Transportation Statistics' on-time data). One document per
 * flight: departure time, arrival delay and distance in whole minutes and miles, origin and
 * destination airport codes. DuckDB reads the Parquet file.
 *
 * `--docs N` below the full size takes the flights whose row number k has (k * MULTIPLIER) mod
 * 3,000,000 below N: a multiplier near the golden ratio spreads them evenly over the six months
 * (a prefix would be the first days of January), every smaller sample is part of every larger one,
 * and the documents keep the file's (departure time) order, as a flight log is written.
 */

export const FLIGHTS_CORPUS_NAME = 'vega-datasets-3.2.1-flights-3m';
export const FLIGHTS_INDEX = 'flights';
export const FLIGHTS_ROWS = 3_000_000;
/** round(FLIGHTS_ROWS / golden ratio), made coprime to FLIGHTS_ROWS (odd, not a multiple of 3 or 5). */
const MULTIPLIER = 1_854_101;

export const FLIGHTS_INDEX_BODY = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0, requests: { cache: { enable: false } } } },
  mappings: {
    properties: {
      date: { type: 'date' },
      delay: { type: 'integer' },
      distance: { type: 'integer' },
      origin: { type: 'keyword' },
      destination: { type: 'keyword' },
    },
  },
} as const;

export interface Flight {
  /** Scheduled departure, UTC to the minute. */
  date: string;
  /** Arrival delay in minutes; negative when early. */
  delay: number;
  /** Miles. */
  distance: number;
  origin: string;
  destination: string;
}

/** The Parquet file inside the installed package. */
export function flightsFile(): string {
  const entry = createRequire(import.meta.url).resolve('vega-datasets');
  return join(dirname(dirname(entry)), 'data', 'flights-3m.parquet');
}

/** The query that selects `docs` flights (see the module comment) as CSV columns. */
export function flightsQuery(file: string, docs: number): string {
  if (!Number.isInteger(docs) || docs < 0) throw new Error(`flights: docs must be a count, got ${docs}`);
  return `SELECT file_row_number, strftime(date, '%Y-%m-%dT%H:%M:%SZ'), delay, distance, origin, destination
    FROM read_parquet('${file.replaceAll("'", "''")}', file_row_number = true)
    WHERE (file_row_number * ${MULTIPLIER}) % ${FLIGHTS_ROWS} < ${docs}
    ORDER BY file_row_number`;
}

/**
 * The corpus is read synchronously (a corpus is an Iterable); DuckDB's Node API is asynchronous,
 * so a child Node process runs the query and writes CSV to a temporary file, read here in chunks.
 */
const EXPORT_SCRIPT = `
const [duckdb, query, out] = process.argv.slice(1);
const { DuckDBInstance } = await import(duckdb);
const connection = await (await DuckDBInstance.create(':memory:')).connect();
await connection.run("COPY (" + query + ") TO '" + out.replaceAll("'", "''") + "' (HEADER false)");
`;

function* lines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    let rest = '';
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      const text = rest + buffer.toString('latin1', 0, n);
      const parts = text.split('\n');
      rest = parts.pop() as string;
      yield* parts;
    }
    if (rest.length > 0) yield rest;
  } finally {
    closeSync(fd);
  }
}

/** One CSV line of the export: row number, date, delay, distance, origin, destination. */
export function parseFlightLine(line: string): { row: number; flight: Flight } {
  const [row, date, delay, distance, origin, destination] = line.split(',');
  const numbers = [row, delay, distance].map(Number);
  if (!date || !origin || !destination || numbers.some((x) => !Number.isInteger(x)))
    throw new Error(`flights: malformed row: ${line.slice(0, 80)}`);
  const [n, d, miles] = numbers as [number, number, number];
  return { row: n, flight: { date, delay: d, distance: miles, origin, destination } };
}

export const flightId = (row: number) => `fl-${String(row).padStart(7, '0')}`;

/** `docs` flights as corpus documents (id = the row number in the file, e.g. "fl-0000042"). */
export function* flightsCorpus(docs: number): Generator<{ id: string; source: Flight }> {
  if (docs > FLIGHTS_ROWS)
    throw new Error(`the flights corpus has ${FLIGHTS_ROWS} documents: use --docs ${FLIGHTS_ROWS} or fewer`);
  const dir = mkdtempSync(join(tmpdir(), 'everycell-flights-'));
  try {
    const csv = join(dir, 'flights.csv');
    const duckdb = createRequire(import.meta.url).resolve('@duckdb/node-api');
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', EXPORT_SCRIPT, duckdb, flightsQuery(flightsFile(), docs), csv],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    for (const line of lines(csv)) {
      const { row, flight } = parseFlightLine(line);
      yield { id: flightId(row), source: flight };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
