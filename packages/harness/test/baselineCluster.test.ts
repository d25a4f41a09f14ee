import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MAX_BASELINE_NODES, parseBenchArgs, UsageError } from '../src/cli/args.js';
import { reproduceCommand } from '../src/cli/benchFlags.js';
import { clusterIndexShape, shardedIndexBody } from '../src/corpus/clusterShards.js';
import { INDEX_BODY } from '../src/corpus/mapping.js';
import {
  NODE_PID_LINE,
  nodeLauncherArgs,
  planCluster,
  shellQuote,
  supervisorScript,
} from '../src/engines/opensearchClusterPlan.js';
import type { RunningEngine } from '../src/engines/types.js';
import { engineInfo } from '../src/run/manifest.js';
import { comparable, comparableKey } from '../src/scorecard/comparable.js';
import { scorecardProblems } from '../src/scorecard/validate.js';
import { sampleCard } from './helpers/card.js';

describe('--baseline-nodes', () => {
  it('defaults to the single node and takes a node count', () => {
    expect(parseBenchArgs([]).settings.baselineNodes).toBe(1);
    expect(parseBenchArgs(['--baseline-nodes', '3']).settings.baselineNodes).toBe(3);
    expect(parseBenchArgs(['--baseline-nodes', '1']).settings.baselineNodes).toBe(1);
  });

  it('refuses a bad count, or a baseline it would not start, in one line naming the fix', () => {
    const bad = (argv: string[], message: string) => {
      expect(() => parseBenchArgs(argv)).toThrow(UsageError);
      expect(() => parseBenchArgs(argv)).toThrow(message);
    };
    const count = `--baseline-nodes must be a whole number 1-${MAX_BASELINE_NODES}`;
    for (const value of ['0', 'three', '2.5', '', String(MAX_BASELINE_NODES + 1)])
      bad(['--baseline-nodes', value], `${count}, got "${value}" (e.g. --baseline-nodes 3)`);
    // A negative value needs `=` (node's parseArgs reads a bare "-2" as a flag, and says so).
    bad(['--baseline-nodes=-2'], `${count}, got "-2"`);
    bad(['--baseline-nodes', '-2'], "Option '--baseline-nodes' argument is ambiguous");
    bad(
      ['--baseline-nodes', '3', '--baseline-url', 'http://127.0.0.1:9200'],
      '--baseline-nodes starts its own OpenSearch nodes and --baseline-url uses a running baseline: drop one of them',
    );
    bad(['--baseline-nodes', '2', '--aa', 'baseline'], 'drop --baseline-nodes for an A/A run');
    bad(['--baseline-nodes', '2', '--aa', 'candidate'], 'drop --baseline-nodes for an A/A run');
    for (const argv of [
      ['--baseline-nodes', 'x'],
      ['--baseline-nodes', '3', '--baseline-url', 'http://x:1'],
    ]) {
      try {
        parseBenchArgs(argv);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
  });

  it('the reproduce command passes a cluster, and nothing for the single node', () => {
    const command = (baselineNodes: number) =>
      reproduceCommand({ gitRevision: 'abc', settings: { docs: 20000, baselineNodes } }).lines[1];
    expect(command(3)).toContain('--baseline-nodes 3');
    expect(command(1)).not.toContain('--baseline-nodes');
  });
});

describe('the cluster index body', () => {
  it('one shard per node, no replicas, at most one shard on a node; mapping and settings kept', () => {
    const body = shardedIndexBody(INDEX_BODY, clusterIndexShape(3)) as {
      settings: { index: Record<string, unknown> };
      mappings: unknown;
    };
    expect(body.settings.index).toMatchObject({
      number_of_shards: 3,
      number_of_replicas: 0,
      routing: { allocation: { total_shards_per_node: 1 } },
      requests: { cache: { enable: false } },
    });
    expect(body.mappings).toEqual((INDEX_BODY as { mappings: unknown }).mappings);
    // The corpus's own body is left as it was (the candidate still gets it).
    expect(
      (INDEX_BODY as { settings: { index: { number_of_shards: number } } }).settings.index.number_of_shards,
    ).toBe(1);
  });

  it('replaces flat shard settings too, so the index cannot be given two counts', () => {
    const body = shardedIndexBody(
      { settings: { number_of_shards: 1, 'index.number_of_replicas': 2, refresh_interval: '1s' } },
      clusterIndexShape(2),
    ) as { settings: Record<string, unknown> };
    expect(body.settings).toEqual({
      refresh_interval: '1s',
      index: {
        number_of_shards: 2,
        number_of_replicas: 0,
        routing: { allocation: { total_shards_per_node: 1 } },
      },
    });
  });
});

describe('the topology in the manifest and the comparable set', () => {
  const cluster = (nodes: number, heapMbPerNode = 1024) => {
    const card = sampleCard('b');
    card.manifest.baseline = {
      ...card.manifest.baseline,
      topology: { nodes, ...clusterIndexShape(nodes), heapMbPerNode },
    };
    return card;
  };

  it('a cluster the harness started records nodes, shards, replicas and heap per node', () => {
    const engine = {
      role: 'baseline',
      product: 'OpenSearch 2.19.1',
      version: '2.19.1',
      url: 'http://127.0.0.1:9',
      pid: 42,
      cluster: { nodes: 3, heapMbPerNode: 1024 },
    } as unknown as RunningEngine;
    expect(engineInfo(engine).topology).toEqual({ nodes: 3, shards: 3, replicas: 0, heapMbPerNode: 1024 });
    expect(engineInfo({ ...engine, cluster: undefined } as RunningEngine).topology).toBeUndefined();
  });

  it('the validator accepts it, and refuses a broken one by field', () => {
    expect(scorecardProblems('x.json', cluster(3))).toEqual([]);
    const broken = cluster(3) as unknown as {
      manifest: { baseline: { topology: { heapMbPerNode: unknown } } };
    };
    broken.manifest.baseline.topology.heapMbPerNode = 'lots';
    expect(scorecardProblems('x.json', broken).join('\n')).toContain(
      'manifest.baseline.topology.heapMbPerNode',
    );
  });

  it('cluster runs never compare with single-node runs, nor with another shape', () => {
    const single = sampleCard('a');
    expect(comparable(single, cluster(3))).toBe(false);
    expect(comparable(cluster(3), cluster(3))).toBe(true);
    expect(comparable(cluster(3), cluster(2))).toBe(false);
    expect(comparable(cluster(3), cluster(3, 2048))).toBe(false);
    expect(comparableKey(cluster(3))).toContain(
      'OpenSearch 2.19.1 2.19.1, 3 nodes x 1024 MiB heap, 3 shards, 0 replicas',
    );
  });

  it('a single node with a one-shard index keeps the key runs had before topologies were recorded', () => {
    const recorded = sampleCard('b');
    recorded.manifest.baseline = {
      ...recorded.manifest.baseline,
      topology: { nodes: 1, shards: 1, replicas: 0 },
    };
    expect(comparableKey(recorded)).toBe(comparableKey(sampleCard('a')));
  });
});

describe('the cluster plan', () => {
  const layout = {
    nodes: 3,
    heapMb: 1024,
    dataDir: '/run/baseline/home',
    logFile: '/run/baseline/engine.log',
    port: 9200,
  };
  const plan = planCluster(layout, [9201, 9202, 9300, 9301, 9302]);

  it('names each node and gives it its own ports, home, data and log; data all under one folder', () => {
    expect(plan.clusterName).toBe('everycell-baseline-9200');
    expect(plan.nodes).toEqual([
      {
        name: 'baseline-1',
        httpPort: 9200,
        transportPort: 9300,
        home: '/run/baseline/home/baseline-1',
        data: '/run/baseline/home/data/baseline-1',
        logFile: '/run/baseline/baseline-1.log',
      },
      {
        name: 'baseline-2',
        httpPort: 9201,
        transportPort: 9301,
        home: '/run/baseline/home/baseline-2',
        data: '/run/baseline/home/data/baseline-2',
        logFile: '/run/baseline/baseline-2.log',
      },
      {
        name: 'baseline-3',
        httpPort: 9202,
        transportPort: 9302,
        home: '/run/baseline/home/baseline-3',
        data: '/run/baseline/home/data/baseline-3',
        logFile: '/run/baseline/baseline-3.log',
      },
    ]);
  });

  it('every node seeds from every transport port and names every node for the first election', () => {
    const args = nodeLauncherArgs(plan, plan.nodes[1] as (typeof plan.nodes)[number]);
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    expect(value('--port')).toBe('9201');
    expect(value('--transport-port')).toBe('9301');
    expect(value('--node-name')).toBe('baseline-2');
    expect(value('--cluster-name')).toBe('everycell-baseline-9200');
    expect(value('--seed-hosts')).toBe('127.0.0.1:9300,127.0.0.1:9301,127.0.0.1:9302');
    expect(value('--initial-cluster-manager-nodes')).toBe('baseline-1,baseline-2,baseline-3');
    expect(args).toContain('--exit-with-parent');
  });

  it('refuses a one-node cluster and clashing ports', () => {
    expect(() => planCluster({ ...layout, nodes: 1 }, [9300])).toThrow('at least 2 nodes');
    expect(() => planCluster(layout, [9201, 9202, 9300, 9301, 9200])).toThrow('6 distinct ports');
    expect(() => planCluster(layout, [9201, 9202])).toThrow('6 distinct ports');
  });

  it('quotes every word for bash', () => {
    expect(shellQuote('target/lib/*')).toBe(`'target/lib/*'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

/**
 * The supervisor script with stand-in "nodes" (plain shell commands instead of JVMs): what it
 * does with signals, a dying node and the harness's stdin is the same whatever the nodes are.
 */
describe('the supervisor', () => {
  const run = (nodes: string[]) => {
    const script = supervisorScript(
      nodes.map((cmd, i) => ({ name: `n${i + 1}`, argv: ['sh', '-c', cmd], logFile: '/dev/null' })),
    );
    const child = spawn('bash', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const pids: number[] = [];
    let out = '';
    const started = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        for (const line of out.split('\n')) {
          const m = NODE_PID_LINE.exec(line);
          if (m && !pids.includes(Number(m[2]))) pids.push(Number(m[2]));
        }
        if (pids.length === nodes.length) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    return { child, pids, started, exited };
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('passes SIGTERM on to every node and waits for them', async () => {
    const s = run(['exec sleep 30', 'exec sleep 30']);
    await s.started;
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(143);
    expect(s.pids.filter(alive)).toEqual([]);
  });

  it('when one node exits, stops the others and exits with its status', async () => {
    const s = run(['exec sleep 30', 'sleep 0.2; exit 3']);
    await s.started;
    expect(await s.exited).toBe(3);
    expect(s.pids.filter(alive)).toEqual([]);
  });

  it("the nodes read the harness's stdin: its end-of-file ends them all", async () => {
    const s = run(['exec cat >/dev/null', 'exec cat >/dev/null']);
    await s.started;
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.pids.filter(alive)).toEqual([]);
  });
});
