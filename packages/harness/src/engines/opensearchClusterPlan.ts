/**
 * The shape of a baseline OpenSearch cluster on this machine (`--baseline-nodes N`), as pure
 * data: each node's name, ports, folders and launcher arguments, and the shell script that
 * supervises the node JVMs. opensearchCluster.ts starts it; tests read it without a JVM.
 *
 * Why a supervising shell: the harness reads an engine's CPU time and memory, and pins it to its
 * CPUs, through one process tree (/proc, engines/proc.ts). With the N JVMs as children of one
 * `bash`, every existing reader sums and pins all nodes exactly (per-thread schedstat, VmRSS per
 * process) with no change to how a side is measured; the shell's own few MiB show up as one
 * more process in the memory row.
 */
import { dirname, join } from 'node:path';

export interface ClusterNode {
  /** node.name, e.g. "baseline-1". */
  name: string;
  httpPort: number;
  transportPort: number;
  /** path.home: config, logs (the GC log) and the JVM's tmp dir. */
  home: string;
  /** path.data: the node's shards and translog. */
  data: string;
  /** Where the node's stdout and stderr go. */
  logFile: string;
}

export interface ClusterPlan {
  clusterName: string;
  heapMb: number;
  /** The first node is the one the harness sends every request to (see opensearchCluster.ts). */
  nodes: ClusterNode[];
}

export interface ClusterLayout {
  nodes: number;
  heapMb: number;
  /** The engine's folder: node homes under it, every node's data under `<dataDir>/data`. */
  dataDir: string;
  /** The supervisor's own log; each node's log sits beside it. */
  logFile: string;
  /** The first node's HTTP port (the harness's). */
  port: number;
}

/**
 * Name and place every node. `freePorts` holds 2N-1 distinct free ports: the other nodes' HTTP
 * ports, then every node's transport port. All data sits under `<dataDir>/data` so the run's
 * cleanup of that one folder removes every node's copy of the index.
 */
export function planCluster(layout: ClusterLayout, freePorts: readonly number[]): ClusterPlan {
  const n = layout.nodes;
  if (!Number.isInteger(n) || n < 2) throw new Error(`a cluster needs at least 2 nodes, got ${n}`);
  const ports = [layout.port, ...freePorts];
  if (ports.length !== 2 * n || new Set(ports).size !== ports.length)
    throw new Error(`a ${n}-node cluster needs ${2 * n} distinct ports, got ${ports.join(', ')}`);
  const logDir = dirname(layout.logFile);
  const nodes = Array.from({ length: n }, (_, i): ClusterNode => {
    const name = `baseline-${i + 1}`;
    return {
      name,
      httpPort: ports[i] as number,
      transportPort: ports[n + i] as number,
      home: join(layout.dataDir, name),
      data: join(layout.dataDir, 'data', name),
      logFile: join(logDir, `${name}.log`),
    };
  });
  // Unique per cluster: a node can never join another run's (or a test's) cluster on this machine.
  return { clusterName: `everycell-baseline-${layout.port}`, heapMb: layout.heapMb, nodes };
}

/** The launcher's arguments for one node (after the JVM flags and main class). */
export function nodeLauncherArgs(plan: ClusterPlan, node: ClusterNode): string[] {
  return [
    '--port',
    String(node.httpPort),
    '--transport-port',
    String(node.transportPort),
    '--home',
    node.home,
    '--data',
    node.data,
    '--node-name',
    node.name,
    '--cluster-name',
    plan.clusterName,
    '--seed-hosts',
    plan.nodes.map((n) => `127.0.0.1:${n.transportPort}`).join(','),
    // Every node may manage the cluster: losing any one node is a dead baseline either way (no
    // replicas), and N eligible nodes elect one without a dedicated manager JVM.
    '--initial-cluster-manager-nodes',
    plan.nodes.map((n) => n.name).join(','),
    '--exit-with-parent',
  ];
}

/** One word for bash: single-quoted, so `*` in a classpath and spaces in paths stay literal. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** The line the supervisor prints per node started, so the harness knows every JVM's pid. */
export const NODE_PID_LINE = /^everycell-cluster node (\S+) pid (\d+)$/;

/**
 * The bash script that runs the nodes: each JVM in the background with its own log and the
 * supervisor's stdin (the harness's pipe: end-of-file stops every node, as for a single node),
 * one pid line per node on stdout. SIGTERM is passed on to every node and waited for (each closes
 * itself cleanly); and when any node exits, the others are stopped and the script exits with that
 * node's status, so one dead node is a dead engine, never a silently shrunken cluster.
 */
export function supervisorScript(
  nodes: readonly { name: string; argv: readonly string[]; logFile: string }[],
): string {
  const start = nodes.map(
    (node) =>
      `${node.argv.map(shellQuote).join(' ')} <&3 >>${shellQuote(node.logFile)} 2>&1 &\n` +
      `pids+=("$!"); echo "everycell-cluster node ${node.name} pid $!"`,
  );
  return [
    // A background job's stdin would be /dev/null: keep the harness's pipe on fd 3 for the nodes.
    'exec 3<&0',
    'pids=()',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash array expansion, not a template
    'stop_nodes() { kill -TERM "${pids[@]}" 2>/dev/null; wait; }',
    "trap 'stop_nodes; exit 143' TERM INT",
    ...start,
    'exec 3<&-',
    'wait -n',
    'status=$?',
    'echo "everycell-cluster: a node exited (status $status); stopping the others" >&2',
    'stop_nodes',
    'exit "$status"',
    '',
  ].join('\n');
}
