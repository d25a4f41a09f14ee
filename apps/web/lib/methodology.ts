/**
 * The benchmark's rules in words, with the numbers the run actually used filled in from its
 * manifest settings. The wording follows the harness (packages/harness/src/verdict/decide.ts,
 * run/, stats/nestedInterval.ts); a setting the manifest lacks is described without a number.
 */
import type { Manifest } from './definitions';
import { levelText, runConfidence } from './interval';

export interface Rule {
  title: string;
  text: string;
}

type Settings = Manifest['settings'];

function num(settings: Settings, key: string): number | undefined {
  const value = settings[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const integer = new Intl.NumberFormat('en-US');

/** "200 requests/s" when the setting is there, the fallback phrase when it is not. */
function say(value: number | undefined, render: (value: number) => string, fallback: string): string {
  return value === undefined ? fallback : render(value);
}

/** Which quantile a verdict is judged on, and why not the tail. */
function quantileRule(): Rule {
  return {
    title: 'Which quantile decides',
    text: "A read row's verdict is judged on the p50 (the median latency): each fork times a few hundred requests per row, enough to pin its median tightly but only a handful of requests beyond its p99, so an interval over forks of the p99 would be too wide to decide ~90 rows at a useful confidence, and the gate would flap on tail noise. Read-under-write rows are judged on the p99, because a tail that writes disturb is what they measure. The p99 is still shown beside every read row (baseline p99 / candidate p99), and a row whose p50 and p99 point opposite ways beyond the tie margin is marked 'p99 disagrees': the verdict speaks for the median request, not the slowest one in a hundred.",
  };
}

function sameAnswers(s: Settings): Rule {
  return {
    title: 'Same answers, or no verdict',
    text: `The engines' results (hit counts, top hits, aggregation values) are compared on the probe request${say(num(s, 'signalEvery'), (n) => ` and on every ${n}th timed response`, ' and on sampled timed responses')}. If they differ the row is N/A and both sides are shown: a fast wrong answer does not win.`,
  };
}

/**
 * The rules that changed with forks (schema 2: a manifest with a `design`): the interval over
 * process executions, engine CPU per request, the idle state, and the gate's four exit statuses.
 */
function forkRules(manifest: Manifest, design: NonNullable<Manifest['design']>): Rule[] {
  const s = manifest.settings;
  const margin = num(s, 'tieMargin');
  const winAt = margin === undefined ? '1 + margin' : (1 + margin).toFixed(3);
  const loseAt = margin === undefined ? '1 / (1 + margin)' : (1 / (1 + margin)).toFixed(3);
  const confidence = num(s, 'confidence');
  const level = confidence === undefined ? 'The' : `The ${Math.round(confidence * 100)}%`;
  const collapse = num(s, 'collapseErrorRate');
  return [
    {
      title: 'Forks, rounds and order',
      text: `Each engine is measured in ${design.forks} forks, process executions${say(num(s, 'maxForks'), (n) => ` (up to ${n} for a row whose interval has not decided, whichever way it leans)`, '')}: every fork restarts both engines on their data, prewarms every row${say(num(s, 'prewarm'), (n) => ` with ${integer.format(n)} requests`, '')}, waits until both engines' CPU is quiet, then times every row in a new shuffled order, ${design.roundsPerFork} paired rounds per fork of ${integer.format(design.requestsPerRound)} timed requests each, the engine that goes first alternating. ${say(num(s, 'warmup'), (n) => `${n} untimed warmup requests`, 'Untimed warmup requests')} precede each round. The engines run on their own CPUs, the harness on another.${design.othersFrozen ? " While one engine is timed the other is frozen (SIGSTOP on its process tree), so its JIT compiler, garbage collector and merges cannot run on the timed engine's CPUs; the harness's floor is measured with both frozen." : ''}`,
    },
    {
      title: 'Ratio and confidence interval',
      text: `Every ratio is normalised so that > 1 means the candidate is better: baseline p50 / candidate p50 for latency rows, candidate docs/s / baseline docs/s for ingest. ${level} interval is a t interval over the forks' log ratios: two processes of one engine can differ for their whole life, so the variance between processes belongs inside the interval, and each fork carries its rounds' and requests' noise. Rows measured in one process (read under write, kNN latency${design.othersFrozen ? ', the one-client ingest row, whose load is cut into paired rounds' : ''}) use their paired rounds instead. Engine CPU per request (the engine process tree's on-CPU time from /proc during the timed requests, divided by the requests) gets its own interval the same way and is shown beside latency. Not every interval has that level: ${design.othersFrozen ? 'kNN recall resamples its queries (a bootstrap at a fixed 95%)' : 'the one-client ingest row resamples its bulk requests and kNN recall its queries (bootstraps at a fixed 95%)'}, and rows measured once per engine (disk, memory, ingest at several clients, capacity) have no interval and are judged against a wider margin. Each row on this site states its own level.`,
    },
    quantileRule(),
    {
      title: 'Verdict',
      text: `N/A when either engine does not support the request or the results differ. A side whose failed and dropped requests exceed ${say(collapse, (n) => `${n * 100}%`, 'the collapse limit')} has collapsed and loses the row (both collapsed: N/A); a row where both engines saturated the machine is scored on service time. A row whose engines both sit within 2x of the harness's floor is TIE, below resolution. Otherwise WIN when the interval lies above 1, the ratio is at least ${winAt} and most forks agree; LOSE when the interval lies below 1, the ratio is at most ${loseAt} and most forks agree; TIE otherwise.`,
    },
    {
      title: 'The gate',
      text: 'A pull request fails its check on a LOSE row (exit 1), a failed run (2), coverage that fell against the last comparable published run (3), or a row slower than the candidate built at the merge base beyond a 10% margin with its whole interval (4). A waiver with an expiry date can let a named row through; every LOSE is still published.',
    },
  ];
}

export function benchmarkRules(manifest: Manifest): Rule[] {
  const s = manifest.settings;
  const margin = num(s, 'tieMargin');
  const winAt = margin === undefined ? '1 + margin' : (1 + margin).toFixed(3);
  const loseAt = margin === undefined ? '1 / (1 + margin)' : (1 / (1 + margin)).toFixed(3);
  const collapse = num(s, 'collapseErrorRate');
  const common: Rule[] = [
    {
      title: 'Same data on both engines',
      text: `Both engines load the same seeded corpus (${manifest.corpus.name}, ${integer.format(manifest.corpus.docs)} documents, seed ${manifest.corpus.seed}, content ${manifest.corpus.contentHash}) through the bulk API${say(num(s, 'bulkSize'), (n) => `, ${integer.format(n)} documents per request`, '')}. Ingest throughput is itself a row.`,
    },
    {
      title: 'Open-loop load',
      text: `Each read row sends requests to each engine on a fixed schedule${say(num(s, 'rate'), (n) => ` of ${integer.format(n)} requests/s`, '')}, request i at its own absolute time. Latency is measured from the intended send time, so an engine that falls behind is charged for the wait. Requests beyond the in-flight cap${say(num(s, 'connections'), (n) => ` (${n} per engine)`, '')} are dropped and counted, never queued.`,
    },
  ];
  if (manifest.design) {
    const [forks, ...rest] = forkRules(manifest, manifest.design);
    return [...common, ...(forks ? [forks] : []), sameAnswers(s), ...rest];
  }
  return [
    ...common,
    {
      title: 'Rounds, warmup and order',
      text: `${say(num(s, 'iterations'), (n) => `${integer.format(n)} timed requests`, 'The timed requests')} per engine and row are split over ${say(num(s, 'rounds'), (n) => `${n} rounds`, 'several rounds')}; the engine that goes first alternates each round. ${say(num(s, 'warmup'), (n) => `${n} untimed warmup requests`, 'Untimed warmup requests')} per engine precede each round and are excluded from the statistics.`,
    },
    sameAnswers(s),
    quantileRule(),
    {
      title: 'Ratio and confidence interval',
      text: `Every ratio is normalised so that > 1 means the candidate is better: baseline p50 / candidate p50 for latency rows, candidate docs/s / baseline docs/s for ingest. The ${levelText(runConfidence(s))} confidence interval comes from ${say(num(s, 'bootstrapResamples'), (n) => `${integer.format(n)} bootstrap resamples`, 'bootstrap resamples')}${say(num(s, 'bootstrapBlock'), (n) => `, latency samples resampled in blocks of ${n} consecutive requests because noise on a shared machine comes in bursts`, '')}.`,
    },
    {
      title: 'Verdict',
      text: `N/A when either engine does not support the request, the results differ, or the harness itself fell behind its schedule${say(num(s, 'maxSendLagP99Ms'), (n) => ` (send-lag p99 above ${n} ms)`, '')}. A side whose failed and dropped requests exceed ${say(collapse, (n) => `${n * 100}%`, 'the collapse limit')} has collapsed and loses the row (both collapsed: N/A). Otherwise WIN when the interval lies above 1 and the ratio is at least ${winAt}; LOSE when the interval lies below 1 and the ratio is at most ${loseAt}; TIE otherwise, and a WIN becomes a TIE if the candidate had more failed requests.`,
    },
    {
      title: 'The gate',
      text: 'A pull request fails its check when any row is LOSE or the run itself failed. WIN, TIE and N/A pass; N/A rows are listed with their cause so they can be fixed.',
    },
  ];
}
