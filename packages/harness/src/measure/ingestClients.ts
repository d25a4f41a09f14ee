import { indexBodyFor, type PreparedCorpus } from '../corpus/bulk.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import type { Side } from '../load/side.js';
import type { IngestCellRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';

/** The fresh index one ingest cell writes to (deleted afterwards, so cells never share state). */
export const cellIndex = (clients: number) => `everycell-ingest-${clients}-clients`;

const itemsFailed = (text: string) => /"errors"\s*:\s*true/.test(text);

/**
 * One ingest cell on one engine: a fresh index, then `clients` concurrent clients each taking the
 * next prepared bulk body until none is left, then `_refresh`. The clock runs from the first bulk
 * to the refresh's answer (docs are searchable), so docs/s includes making them visible.
 */
export async function ingestCell(
  side: Side,
  corpus: PreparedCorpus,
  clients: number,
  settings: RunSettings,
): Promise<IngestCellRaw> {
  const index = cellIndex(clients);
  const raw: IngestCellRaw = { supported: true, failedBulks: 0 };
  try {
    await side.json('DELETE', `/${index}`);
    const put = await side.json('PUT', `/${index}`, indexBodyFor(corpus, side.role));
    if (put.status >= 300)
      return { ...raw, supported: false, error: `PUT /${index}: ${esErrorSummary(put.status, put.body)}` };
    let next = 0;
    const worker = async () => {
      for (let n = next++; n < corpus.batches.length; n = next++) {
        const res = await side.send(
          'POST',
          `/${index}/_bulk`,
          corpus.batches[n]?.body,
          settings.bulkTimeoutMs,
        );
        if (res.status >= 300 || itemsFailed(res.text)) {
          raw.failedBulks++;
          raw.error ??= `bulk ${n}: ${res.status >= 300 ? `HTTP ${res.status}` : 'items failed'}`;
        }
      }
    };
    const t0 = process.hrtime.bigint();
    await Promise.all(Array.from({ length: clients }, worker));
    const refresh = await side.send('POST', `/${index}/_refresh`);
    raw.elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    if (refresh.status >= 300) return { ...raw, supported: false, error: `refresh: HTTP ${refresh.status}` };
    raw.docsPerSec = corpus.docs / (raw.elapsedMs / 1000);
    const count = await side.json('POST', `/${index}/_count`, { query: { match_all: {} } });
    if (count.status >= 300)
      return { ...raw, supported: false, error: `_count: ${esErrorSummary(count.status, count.body)}` };
    raw.count = (count.body as { count?: number }).count;
    if (raw.failedBulks > 0) raw.supported = false;
    return raw;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { ...raw, supported: false, error: `ingest: ${error.message}` };
  } finally {
    // The cell's data is not needed again; free the disk and heap for the next cell.
    await side.json('DELETE', `/${index}`).catch(() => undefined);
  }
}
