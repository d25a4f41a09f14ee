/**
 * What the site build hands the pages' build about each run (lib/data.ts SiteIndex). A run's
 * latency distributions, timelines, HDR histograms and request bodies are drawn only on the row
 * pages of its set's newest run; every other run needs its verdicts, ratios, intervals, reasons
 * and the numbers its table shows. Slimming the others keeps the index a fixed few tens of
 * kilobytes per run instead of the card's hundreds. Pure.
 */
import type { RowResult, Scorecard, SideMeasurement } from './definitions';

function slimSide(side: SideMeasurement): SideMeasurement {
  const {
    hdr: _hdr,
    ecdf: _ecdf,
    timeline: _timeline,
    memory: _memory,
    writeLoad: _writeLoad,
    ...kept
  } = side;
  return kept;
}

function slimRow(row: RowResult): RowResult {
  const { request: _request, versusBase: _versusBase, ...kept } = row;
  return { ...kept, candidate: slimSide(row.candidate), baseline: slimSide(row.baseline) };
}

/** The card without what only its row pages' drill-downs read. */
export function slimScorecard(card: Scorecard): Scorecard {
  const { sweeps: _sweeps, ...kept } = card;
  const { idle: _idle, placement: _placement, ...manifest } = card.manifest;
  return { ...kept, manifest, rows: card.rows.map(slimRow) };
}

interface RowHome {
  runId: string;
  createdAt: string;
  row: RowResult;
}

const newer = (a: Pick<Scorecard, 'createdAt' | 'runId'>, b: Pick<Scorecard, 'createdAt' | 'runId'>) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.runId.localeCompare(b.runId);

/**
 * Gathers the site index one card at a time (the build reads each file once and keeps only this):
 * every card slimmed, except each set's newest run in full and, for a row the newest run lacks,
 * that row in full in the newest run that measured it, since its row page draws from there.
 */
export function siteIndexBuilder(keyOf: (card: Scorecard) => string) {
  const slim: { key: string; card: Scorecard }[] = [];
  const newest = new Map<string, Scorecard>();
  const homes = new Map<string, Map<string, RowHome>>();
  return {
    add(card: Scorecard): void {
      const key = keyOf(card);
      slim.push({ key, card: slimScorecard(card) });
      const held = newest.get(key);
      if (!held || newer(card, held) > 0) newest.set(key, card);
      const rows = homes.get(key) ?? new Map<string, RowHome>();
      homes.set(key, rows);
      for (const row of card.rows) {
        const home = rows.get(row.id);
        if (!home || newer(card, home) > 0)
          rows.set(row.id, { runId: card.runId, createdAt: card.createdAt, row });
      }
    },
    build(): Scorecard[] {
      return slim.map(({ key, card }) => {
        const full = newest.get(key);
        if (full?.runId === card.runId) return full;
        const rows = homes.get(key);
        return {
          ...card,
          rows: card.rows.map((row) => {
            const home = rows?.get(row.id);
            return home?.runId === card.runId ? home.row : row;
          }),
        };
      });
    },
  };
}
