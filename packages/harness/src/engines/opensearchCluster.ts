/**
 * The baseline as an N-node OpenSearch cluster on this machine (`--baseline-nodes N`): one JVM
 * per node (the same launcher as the single node, with its cluster flags), each with its own
 * home, data folder and free HTTP and transport ports on 127.0.0.1, all children of one
 * supervising `bash` (opensearchClusterPlan.ts says why). Resolves once the first node reports
 * a green cluster of N nodes.
 *
 * The harness sends every request to the first node's HTTP port: it coordinates each search
 * (fans it out to the shards on every node and merges the answers), as a client pinned to one
 * node of a cluster would see it. No round-robin: the harness's client speaks to one URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  BASELINE_MAIN_CLASS,
  baselineJvmFlags,
  ensureBaselineBuilt,
  getJson,
  heapFlags,
  LAUNCHER_ERROR_PREFIX,
  LineTail,
  openSearchVersion,
} from './opensearch.js';
import {
  type ClusterPlan,
  NODE_PID_LINE,
  nodeLauncherArgs,
  planCluster,
  supervisorScript,
} from './opensearchClusterPlan.js';
import { freePort } from './ports.js';
import type { RunningEngine, StartOptions } from './types.js';

export interface ClusterStartOptions extends StartOptions {
  /** Nodes, at least 2. */
  nodes: number;
  /** JVM heap of each node in MiB (min = max). Default 1024, as for the single node. */
  heapMb?: number;
}

/** Each node stops itself on SIGTERM (about a second); past this the stragglers are killed. */
const STOP_GRACE_MS = 30_000;
const HEALTH_POLL_MS = 1_000;

// Supervisors and node JVMs still running when the harness exits are killed: none may outlive a run.
const livePids = new Set<number>();
process.on('exit', () => {
  for (const pid of livePids) kill(pid, 'SIGKILL');
});

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** `count` free ports on 127.0.0.1, distinct from each other and from `taken`. */
async function distinctFreePorts(count: number, taken: readonly number[]): Promise<number[]> {
  const ports = new Set<number>();
  for (let tries = 0; ports.size < count; tries++) {
    if (tries > count * 20) throw new Error(`could not find ${count} free ports on 127.0.0.1`);
    const port = await freePort();
    if (!taken.includes(port)) ports.add(port);
  }
  return [...ports];
}

/** Start an N-node cluster on fresh folders and free ports; `restart` brings the same one back. */
export async function startOpenSearchCluster(opts: ClusterStartOptions): Promise<RunningEngine> {
  const plan = planCluster(
    {
      nodes: opts.nodes,
      heapMb: opts.heapMb ?? 1024,
      dataDir: opts.dataDir,
      logFile: opts.logFile,
      port: opts.port,
    },
    await distinctFreePorts(2 * opts.nodes - 1, [opts.port]),
  );
  return startPlannedCluster(plan, opts);
}

/** Start (or restart: same names, ports and data) the nodes of `plan`. */
async function startPlannedCluster(plan: ClusterPlan, opts: ClusterStartOptions): Promise<RunningEngine> {
  const { classpath } = await ensureBaselineBuilt();
  const n = plan.nodes.length;
  // Every node's JVM pre-touches its heap and loads the same plugins on a shared machine.
  const timeoutMs = opts.startTimeoutMs ?? 120_000 + 60_000 * (n - 1);
  await mkdir(dirname(opts.logFile), { recursive: true });
  const commands = [];
  for (const node of plan.nodes) {
    await mkdir(join(node.home, 'tmp'), { recursive: true });
    await mkdir(join(node.home, 'logs'), { recursive: true });
    await mkdir(node.data, { recursive: true });
    const jvm = baselineJvmFlags(plan.heapMb, node.home);
    commands.push({
      name: node.name,
      logFile: node.logFile,
      argv: ['java', ...jvm, '-cp', classpath, BASELINE_MAIN_CLASS, ...nodeLauncherArgs(plan, node)],
    });
  }
  const jvmHeap = `${n} nodes, each ${heapFlags(baselineJvmFlags(plan.heapMb, ''))}`;
  // Node logs are appended across restarts: a failure is explained by what this start wrote.
  const logOffsets = await Promise.all(
    plan.nodes.map((node) =>
      stat(node.logFile).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );

  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const supervisor: ChildProcess = spawn('bash', ['-c', supervisorScript(commands)], {
    stdio: ['pipe', 'pipe', 'pipe'], // stdin stays open: its end-of-file stops every node
  });
  const nodePids = new Map<string, number>();
  if (supervisor.pid !== undefined) livePids.add(supervisor.pid);
  const forget = () => {
    if (supervisor.pid !== undefined) livePids.delete(supervisor.pid);
    for (const pid of nodePids.values()) livePids.delete(pid);
  };
  // Separate streams, separate line buffers: a pid line must not be spliced with an error line.
  const pidLines = new LineTail(2 * n);
  const tail = new LineTail(20);
  supervisor.stdout?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    for (const line of pidLines.push(chunk)) {
      const m = NODE_PID_LINE.exec(line.trim());
      if (m?.[1] && m[2]) {
        nodePids.set(m[1], Number(m[2]));
        livePids.add(Number(m[2]));
      }
    }
  });
  supervisor.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    tail.push(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    supervisor.once('close', (code, signal) => {
      forget();
      log.end();
      resolve({ code, signal });
    });
  });
  const spawnError = new Promise<never>((_, reject) => {
    supervisor.once('error', (error: NodeJS.ErrnoException) => {
      forget();
      reject(
        error.code === 'ENOENT'
          ? new Error(`\`bash\` is not installed or not on PATH; install it with: apt-get install -y bash`)
          : error,
      );
    });
  });
  spawnError.catch(() => {}); // raced below; must not go unhandled if start wins first

  const stop = async (): Promise<void> => {
    if (supervisor.exitCode === null && supervisor.signalCode === null && supervisor.pid !== undefined) {
      supervisor.kill('SIGTERM'); // the supervisor passes it on to every node and waits for them
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
      if (gaveUp) for (const pid of [...nodePids.values(), supervisor.pid]) kill(pid, 'SIGKILL');
    }
    await exited;
  };

  const first = plan.nodes[0];
  if (!first) throw new Error('a cluster plan without nodes');
  const url = `http://127.0.0.1:${first.httpPort}`;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not a green ${n}-node cluster within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const died = exited.then(({ code, signal }) => {
    throw new Error(`a node exited during startup (supervisor code ${code}, signal ${signal})`);
  });
  died.catch(() => {});
  let settled = false;
  const answered = (async () => {
    await waitForGreenCluster(url, n, () => settled);
    return openSearchVersion(url);
  })();
  answered.catch(() => {});
  try {
    const version = await Promise.race([answered, died, spawnError, timedOut]);
    return {
      role: 'baseline',
      product: `OpenSearch ${version}`,
      version,
      url,
      // The supervisor: the node JVMs are its children, so CPU, memory and pinning cover them all.
      pid: supervisor.pid,
      dataDir: join(opts.dataDir, 'data'),
      jvmHeap,
      cluster: { nodes: n, heapMbPerNode: plan.heapMb },
      exited,
      stop,
      // Every node again on its own data and ports: the cluster state and the index come back
      // from disk, and the start resolves only once the cluster is green (every shard assigned).
      restart: () => startPlannedCluster(plan, opts),
    };
  } catch (error) {
    settled = true;
    await stop();
    const reason =
      (await launcherError(plan, logOffsets)) ?? (error instanceof Error ? error.message : String(error));
    throw new Error(
      `baseline OpenSearch cluster (${n} nodes) failed to start: ${reason}; logs ${plan.nodes.map((x) => x.logFile).join(', ')}; ${opts.logFile} ends with:\n${tail.text()}`,
    );
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/**
 * Poll the first node until the cluster is green with all `n` nodes. Until that node answers
 * HTTP, and while no cluster manager is elected yet, the request fails or times out: try again.
 */
async function waitForGreenCluster(url: string, n: number, cancelled: () => boolean): Promise<void> {
  const path = `/_cluster/health?wait_for_status=green&wait_for_nodes=${n}&timeout=10s`;
  while (!cancelled()) {
    try {
      const health = await getJson(`${url}${path}`);
      const body = health.body as { status?: string; number_of_nodes?: number; timed_out?: boolean };
      if (health.status === 200 && body.status === 'green' && body.number_of_nodes === n && !body.timed_out)
        return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}

/** The first failing node's own one-line reason ("everycell-baseline: ..."), from the node logs. */
async function launcherError(plan: ClusterPlan, offsets: readonly number[]): Promise<string | undefined> {
  for (const [i, node] of plan.nodes.entries()) {
    const text = (await readFile(node.logFile).catch(() => Buffer.alloc(0)))
      .subarray(offsets[i] ?? 0)
      .toString('utf8');
    const line = text.split('\n').find((l) => l.startsWith(LAUNCHER_ERROR_PREFIX));
    if (line) return `${node.name}: ${line.replace(/^everycell-baseline: (failed to start: )?/, '')}`;
  }
  return undefined;
}
