/**
 * The baseline engine: real OpenSearch 2.19.1, assembled from Maven Central by baseline/pom.xml
 * and run by baseline/src/main/java/everycell/baseline/EmbeddedOpenSearch.java.
 *
 * ensureBaselineBuilt() runs Maven only when the build is missing or its inputs changed (a stamp
 * holds the hash of pom.xml and the launcher sources), so calling it before every bench is free.
 * startOpenSearch() spawns the JVM and resolves once the cluster is green.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { RunningEngine, StartOptions } from './types.js';

export const BASELINE_DIR = fileURLToPath(new URL('../../baseline/', import.meta.url));
const TARGET_DIR = join(BASELINE_DIR, 'target');
const STAMP_FILE = join(TARGET_DIR, 'everycell-build.stamp');
export const BASELINE_MAIN_CLASS = 'everycell.baseline.EmbeddedOpenSearch';
const READY_PREFIX = 'everycell-baseline listening on ';
export const LAUNCHER_ERROR_PREFIX = 'everycell-baseline: ';
export const INSTALL_HINT = 'apt-get install -y maven openjdk-17-jdk-headless';

/** Files whose presence proves a complete build (the launcher, core, HTTP layer, k-NN). */
const BUILD_OUTPUTS = [
  'classes/everycell/baseline/EmbeddedOpenSearch.class',
  'lib/opensearch-2.19.1.jar',
  'lib/transport-netty4-client-2.19.1.jar',
  'lib/opensearch-knn-2.19.1.0.jar',
];

const classpath = () => [join(TARGET_DIR, 'classes'), join(TARGET_DIR, 'lib', '*')].join(delimiter);

/** Hash of everything Maven builds from: pom.xml and the launcher sources. */
async function inputsHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [join(BASELINE_DIR, 'pom.xml'), ...(await listFiles(join(BASELINE_DIR, 'src')))].sort();
  for (const file of files) {
    hash
      .update(relative(BASELINE_DIR, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function buildIsCurrent(hash: string): Promise<boolean> {
  if (!BUILD_OUTPUTS.every((f) => existsSync(join(TARGET_DIR, f)))) return false;
  try {
    return (await readFile(STAMP_FILE, 'utf8')).trim() === hash;
  } catch {
    return false;
  }
}

/** Run a command to completion, keeping the tail of its output for error messages. */
function run(command: string, args: string[]): Promise<{ code: number | null; tail: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = new LineTail(30);
    child.stdout.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => tail.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(`\`${command}\` is not installed or not on PATH; install it with: ${INSTALL_HINT}`)
          : error,
      );
    });
    child.on('close', (code) => resolve({ code, tail: tail.text() }));
  });
}

let building: Promise<{ classpath: string }> | undefined;

/** Build the baseline with Maven unless a complete build of the same inputs exists. */
export function ensureBaselineBuilt(
  opts: { log?: (line: string) => void } = {},
): Promise<{ classpath: string }> {
  // One build per process even when several callers ask at once.
  building ??= buildBaseline(opts.log ?? (() => {})).finally(() => {
    building = undefined;
  });
  return building;
}

async function buildBaseline(log: (line: string) => void): Promise<{ classpath: string }> {
  await checkJava(); // needed to run the baseline even when the build is current
  const hash = await inputsHash();
  if (await buildIsCurrent(hash)) {
    log('baseline: OpenSearch build is current, skipping Maven');
    return { classpath: classpath() };
  }
  return withBuildLock(async () => {
    // Another process (a parallel test worker) may have finished the same build while we waited.
    if (await buildIsCurrent(hash)) return { classpath: classpath() };
    log('baseline: building OpenSearch 2.19.1 with Maven (a cold ~/.m2 downloads about 100 MB)');
    const started = Date.now();
    const pom = join(BASELINE_DIR, 'pom.xml');
    const result = await run('mvn', ['-q', '-B', '-f', pom, 'package', '-DskipTests']);
    if (result.code !== 0) {
      throw new Error(`baseline: Maven build failed (exit ${result.code}); last output:\n${result.tail}`);
    }
    const missing = BUILD_OUTPUTS.filter((f) => !existsSync(join(TARGET_DIR, f)));
    if (missing.length > 0) {
      throw new Error(`baseline: Maven succeeded but did not produce ${missing.join(', ')}`);
    }
    await writeFile(STAMP_FILE, `${hash}\n`);
    log(`baseline: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { classpath: classpath() };
  });
}

/** The launcher is compiled for Java 17 (OpenSearch 2.19's minimum): fail early and clearly. */
async function checkJava(): Promise<void> {
  const { tail } = await run('java', ['-version']);
  const major = Number(/version "(?:1\.)?(\d+)/.exec(tail)?.[1]);
  if (!(major >= 17)) {
    throw new Error(
      `baseline needs Java 17 or newer, found: ${tail.split('\n')[0]}; install it with: ${INSTALL_HINT}`,
    );
  }
}

/**
 * Two processes (vitest workers, say) must not run Maven into the same target/ at once. The lock
 * is a directory holding the owner's pid; a lock whose owner died is taken over.
 */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  const lockDir = join(TARGET_DIR, 'everycell-build.lock');
  const pidFile = join(lockDir, 'pid');
  await mkdir(TARGET_DIR, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(pidFile, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(pidFile, 'utf8').catch(() => ''));
      if (owner > 0 && !isAlive(owner)) {
        await rm(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `baseline: another build has held ${lockDir} for 15 minutes; delete it if no build runs`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * JVM flags: the ones OpenSearch's own launcher and default jvm.options give a 2.19 node on
 * JDK 17, so the baseline behaves like a stock install. Deviations: no heap dump on OOM (a
 * 1 GB file in the run folder), smaller GC log rotation.
 */
export function baselineJvmFlags(heapMb: number, home: string): string[] {
  return [
    `-Xms${heapMb}m`, // min = max heap, as OpenSearch recommends: no resizing pauses mid-run
    `-Xmx${heapMb}m`,
    '-XX:+UseG1GC',
    '-XX:G1ReservePercent=25', // jvm.options: keeps heap headroom so breakers don't trip before GC
    '-XX:InitiatingHeapOccupancyPercent=30',
    '-XX:+AlwaysPreTouch', // commit the heap up front: no page faults during measurement
    '-Xss1m',
    '-Djava.awt.headless=true',
    '-Dfile.encoding=UTF-8',
    '-Djna.nosys=true',
    '-XX:-OmitStackTraceInFastThrow',
    '-XX:+ShowCodeDetailsInExceptionMessages',
    '-Dio.netty.noUnsafe=true', // Netty flags from OpenSearch's launcher; also why no --add-opens is needed
    '-Dio.netty.noKeySetOptimization=true',
    '-Dio.netty.recycler.maxCapacityPerThread=0',
    '-Dio.netty.allocator.numDirectArenas=0',
    '-Dlog4j.shutdownHookEnabled=false', // the node closes itself in its own shutdown hook
    '-Dlog4j2.disable.jmx=true',
    '-Djava.locale.providers=SPI,COMPAT', // OpenSearch's date parsing on JDK < 23 expects COMPAT data
    `-Djava.io.tmpdir=${join(home, 'tmp')}`,
    `-Xlog:gc*,gc+age=trace,safepoint:file=${join(home, 'logs', 'gc.log')}:utctime,pid,tags:filecount=4,filesize=16m`,
  ];
}

/** The heap flags of a JVM command line ("-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch"), for the memory row. */
export const heapFlags = (jvmFlags: readonly string[]): string =>
  jvmFlags.filter((flag) => /^-Xm[sx]|^-XX:\+AlwaysPreTouch$/.test(flag)).join(' ');

/** A free TCP port on 127.0.0.1 (the OS picks; a tiny race with other binders is accepted). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not pick a free port'))));
    });
  });
}

/** Java stack frames ("\tat ...", "\t... 12 more"): they would crowd the message out of a tail. */
const STACK_FRAME = /^\s+(at |\.\.\. \d+ more)/;

/** The last `max` lines of a stream (without stack frames), for error messages. */
export class LineTail {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly max: number) {}
  /** Add a chunk; returns the complete lines it finished. */
  push(chunk: Buffer): string[] {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts.filter((line) => !STACK_FRAME.test(line)));
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
    return parts;
  }
  text(): string {
    return [...this.lines, this.partial].filter((l) => l.length > 0).join('\n');
  }
}

// Children still running when the harness exits are killed: a JVM must never outlive a run.
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

export async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await request(url, { headersTimeout: 60_000, bodyTimeout: 60_000 });
  const text = await response.body.text();
  try {
    return { status: response.statusCode, body: JSON.parse(text) };
  } catch {
    return { status: response.statusCode, body: text };
  }
}

/** The version `GET /` reports, after checking that it is OpenSearch answering (one node or a cluster). */
export async function openSearchVersion(url: string): Promise<string> {
  const root = (await getJson(`${url}/`)).body as { version?: { number?: string; distribution?: string } };
  if (root.version?.distribution !== 'opensearch' || !root.version.number) {
    throw new Error(`GET / does not look like OpenSearch: ${JSON.stringify(root).slice(0, 200)}`);
  }
  return root.version.number;
}

export interface OpenSearchStartOptions extends StartOptions {
  /** JVM heap in MiB (min = max). Default 1024. */
  heapMb?: number;
  /** Transport (node-to-node) port; a free one is picked when absent. */
  transportPort?: number;
}

/** Start the baseline JVM and resolve once it answers HTTP and the cluster is green. */
export async function startOpenSearch(opts: OpenSearchStartOptions): Promise<RunningEngine> {
  const { classpath: cp } = await ensureBaselineBuilt();
  const heapMb = opts.heapMb ?? 1024;
  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const transportPort = opts.transportPort ?? (await freePort());
  await mkdir(join(opts.dataDir, 'tmp'), { recursive: true });
  await mkdir(join(opts.dataDir, 'logs'), { recursive: true });
  await mkdir(dirname(opts.logFile), { recursive: true });

  const jvmFlags = baselineJvmFlags(heapMb, opts.dataDir);
  const args = [
    ...jvmFlags,
    '-cp',
    cp,
    BASELINE_MAIN_CLASS,
    '--port',
    String(opts.port),
    '--transport-port',
    String(transportPort),
    '--home',
    opts.dataDir,
    '--exit-with-parent', // stdin stays an open pipe; it closes when this process dies, however it dies
  ];
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  liveChildren.add(child);
  const tail = new LineTail(40);
  // 'close' rather than 'exit': it comes after stdout/stderr are drained (so the log and its tail
  // are complete), and it also fires when the spawn itself failed.
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('close', (code, signal) => {
      liveChildren.delete(child);
      log.end();
      resolve({ code, signal });
    });
  });
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      liveChildren.delete(child);
      reject(
        error.code === 'ENOENT'
          ? new Error(`\`java\` is not installed or not on PATH; install it with: ${INSTALL_HINT}`)
          : error,
      );
    });
  });
  spawnError.catch(() => {}); // observed below; avoid an unhandled rejection if start wins first

  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (tail.push(chunk).some((line) => line.startsWith(READY_PREFIX))) resolve();
    });
  });
  // The launcher reports its own fatal errors as "everycell-baseline: ..." on stderr: that line
  // is the best one-line reason, while the log tail fills with the node's shutdown messages.
  let launcherError: string | undefined;
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    launcherError ??= tail.push(chunk).find((line) => line.startsWith(LAUNCHER_ERROR_PREFIX));
  });

  const url = `http://127.0.0.1:${opts.port}`;
  const stop = async (): Promise<void> => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
      await exited;
      return;
    }
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), 20_000);
      }),
    ]);
    clearTimeout(timer);
    if (gaveUp) child.kill('SIGKILL');
    await exited;
  };

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not green within ${timeoutMs} ms`)), timeoutMs);
  });
  const died = exited.then(({ code, signal }) => {
    throw new Error(`exited during startup (code ${code}, signal ${signal})`);
  });
  const answered = (async () => {
    await ready;
    const health = await getJson(`${url}/_cluster/health?wait_for_status=green&timeout=30s`);
    const status = (health.body as { status?: string }).status;
    if (health.status !== 200 || status !== 'green') {
      throw new Error(`cluster health is ${status ?? `HTTP ${health.status}`}, not green`);
    }
    return openSearchVersion(url);
  })();
  answered.catch(() => {}); // if the timeout wins, a late failure here must not go unhandled
  try {
    const version = await Promise.race([answered, died, spawnError, timedOut]);
    return {
      role: 'baseline',
      product: `OpenSearch ${version}`,
      version,
      url,
      // `java` is the JVM's own ELF launcher (no wrapper script), so this pid is the JVM itself.
      pid: child.pid,
      // The node's data path under its home: the index, its translog and the node's state.
      dataDir: join(opts.dataDir, 'data'),
      jvmHeap: heapFlags(jvmFlags),
      exited,
      stop,
      // Same home (its data and translog) and ports: the index comes back from disk.
      restart: () => startOpenSearch({ ...opts, transportPort }),
    };
  } catch (error) {
    await stop();
    const reason =
      launcherError?.replace(/^everycell-baseline: (failed to start: )?/, '') ??
      (error instanceof Error ? error.message : String(error));
    throw new Error(
      `baseline OpenSearch failed to start: ${reason}; log ${opts.logFile} ends with:\n${tail.text()}`,
    );
  } finally {
    clearTimeout(timer);
    died.catch(() => {});
  }
}
