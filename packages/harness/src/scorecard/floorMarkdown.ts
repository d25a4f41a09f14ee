import type { FloorSplit, Scorecard } from './schema.js';

/** SCORECARD.md's floor section: the harness against a null server, and where its p50 and p99 go. */

const ms = (x: number) => x.toFixed(3);

function splitRow(label: string, s: FloorSplit): string {
  return `| ${label} | ${ms(s.latencyMs)} | ${ms(s.queueMs)} | ${ms(s.toServerMs)} | ${ms(s.inServerMs)} | ${ms(s.toClientMs)} | ${ms(s.restMs)} | ${s.samples} |`;
}

export function floorLines(card: Scorecard): string[] {
  const f = card.floor;
  if (!f) return [];
  const lines = [
    "## The harness's floor",
    '',
    `The harness against a null HTTP server in its own process, with the run's client, schedule and rate (${f.rate} req/s), measured right before the reads with both engines up and idle: p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms, send lag p50 ${ms(f.sendLagP50)} / p99 ${ms(f.sendLagP99)} ms. Every read row's latency includes about this much harness.`,
    '',
  ];
  if (f.split) {
    lines.push(
      "Where the floor's time goes, ms, by the null server's clock stamps (one system-wide monotonic clock): the mean of each part over the requests ranked within 5 points of the median, or half a point of the p99. **To server**: the client's write, loopback, the server waking and parsing. **In server**: its handler. **Back**: loopback and the harness waking and reading the reply. **Rest**: the harness's bookkeeping around the call.",
      '',
      '| Quantile | Latency | Queue | To server | In server | Back | Rest | Requests |',
      '|---|---|---|---|---|---|---|---|',
      splitRow('p50', f.split.p50),
      splitRow('p99', f.split.p99),
      '',
    );
  }
  const w = f.runQueueWaitMs;
  if (w)
    lines.push(
      `Waiting for a CPU during the floor's timed requests: the harness's sending thread ${w.harness === undefined ? 'n/a' : `${ms(w.harness)} ms`}, the null server's threads ${w.server === undefined ? 'n/a' : `${ms(w.server)} ms`}.`,
      '',
    );
  return lines;
}
