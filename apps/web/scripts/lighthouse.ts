/**
 * Measures the home page with Lighthouse (npm `lighthouse`, Debian chromium):
 * `npm run lighthouse -w apps/web [-- --dir out --preset mobile|desktop]`.
 * Builds the site first when `<dir>/index.html` is missing, serves it with scripts/serve.ts on a
 * free 127.0.0.1 port, runs Lighthouse once, prints the performance and accessibility scores and
 * the home page's JavaScript, and writes lighthouse/summary-<preset>.json (small, committed) and the full
 * report lighthouse/report.json (ignored). A measurement, not a test: it exits 0 whatever the scores.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { webDir } from './paths';

const TARGET = 95;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'out' },
    preset: { type: 'string', default: 'mobile' },
  },
});
if (values.preset !== 'mobile' && values.preset !== 'desktop') {
  console.error(`error: --preset must be mobile or desktop (got "${values.preset}")`);
  process.exit(2);
}
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(chrome)) {
  console.error(`error: no Chrome at ${chrome}: apt-get install -y chromium, or set CHROME_PATH`);
  process.exit(2);
}
const siteDir = join(webDir, values.dir);
if (!existsSync(join(siteDir, 'index.html'))) {
  console.log(`lighthouse: ${siteDir}/index.html missing, building the site first`);
  const build = spawnSync('npx', ['tsx', 'scripts/build-site.ts'], { cwd: webDir, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitFor(url: string, server: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`the static server exited (${server.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 10 s`);
}

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
  >;
  lighthouseVersion: string;
}

const port = await freePort();
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';
const url = `http://127.0.0.1:${port}${basePath}/`;
// Spawned without a shell or npx, so the child PID is the server itself and kill() stops it.
const server = spawn(
  process.execPath,
  ['--import', 'tsx', 'scripts/serve.ts', '--dir', values.dir, '--port', String(port)],
  {
    cwd: webDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
let exitCode = 0;
try {
  await waitFor(url, server);
  const outDir = join(webDir, 'lighthouse');
  mkdirSync(outDir, { recursive: true });
  const reportPath = join(outDir, 'report.json');
  const args = [
    url,
    `--chrome-path=${chrome}`,
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    '--only-categories=performance,accessibility',
    '--output=json',
    `--output-path=${reportPath}`,
    '--quiet',
    ...(values.preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  const run = spawnSync(join(webDir, '../../node_modules/.bin/lighthouse'), args, {
    cwd: webDir,
    stdio: 'inherit',
    env: { ...process.env, CHROME_PATH: chrome },
  });
  if (run.status !== 0 || !existsSync(reportPath)) {
    throw new Error(`lighthouse failed (exit ${run.status ?? run.signal})`);
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const score = (key: string) => Math.round((report.categories[key]?.score ?? 0) * 100);
  const metric = (key: string) => report.audits[key]?.numericValue;
  const scripts = (report.audits['resource-summary']?.details?.items ?? []).find(
    (item) => item.resourceType === 'script',
  );
  const summary = {
    measuredAt: new Date().toISOString(),
    page: '/',
    preset: values.preset,
    lighthouse: report.lighthouseVersion,
    scores: { performance: score('performance'), accessibility: score('accessibility') },
    target: TARGET,
    metrics: {
      firstContentfulPaintMs: Math.round(metric('first-contentful-paint') ?? 0),
      largestContentfulPaintMs: Math.round(metric('largest-contentful-paint') ?? 0),
      totalBlockingTimeMs: Math.round(metric('total-blocking-time') ?? 0),
      cumulativeLayoutShift: Number((metric('cumulative-layout-shift') ?? 0).toFixed(3)),
      javascriptTransferBytes: scripts?.transferSize ?? 0,
    },
  };
  writeFileSync(join(outDir, `summary-${values.preset}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  for (const [name, value] of Object.entries(summary.scores)) {
    console.log(`${name}: ${value}${value >= TARGET ? '' : ` (below the target ${TARGET})`}`);
  }
  console.log(
    `LCP ${summary.metrics.largestContentfulPaintMs} ms, TBT ${summary.metrics.totalBlockingTimeMs} ms, CLS ${summary.metrics.cumulativeLayoutShift}, JS ${Math.round(summary.metrics.javascriptTransferBytes / 1024)} KiB`,
  );
  console.log(`wrote ${join(outDir, `summary-${values.preset}.json`)} and ${reportPath}`);
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  server.kill('SIGTERM');
}
process.exit(exitCode);
