import { describe, expect, it } from 'vitest';
import { descendants, type ProcReader, parseStatPpid, treeCpuNs } from '../src/engines/proc.js';
import {
  measureMemory,
  measureNodeStatsMemory,
  parseStatus,
  processTreeMemory,
} from '../src/measure/memory.js';
import { buildScorecard } from '../src/scorecard/build.js';
import { renderMarkdown } from '../src/scorecard/markdown.js';
import type { RowResult } from '../src/scorecard/schema.js';
import { memoryRowResult } from '../src/verdict/memoryRowResult.js';
import { testManifest } from './helpers/card.js';

const MiB = 1048576;

const card = (rows: RowResult[]) =>
  buildScorecard({
    runId: '20261126T000000Z-aaaaaaa',
    createdAt: new Date('2026-11-26T00:00:00Z'),
    durationMs: 1000,
    status: 'complete',
    manifest: testManifest(2000, { singleMeasurementMargin: 0.1 }),
    rows,
  });

/** A /proc/<pid>/status as Linux 6.x writes it (trimmed of the signal and capability lines). */
const STATUS_FIXTURE = `Name:\tjava
Umask:\t0022
State:\tS (sleeping)
Tgid:\t4242
Pid:\t4242
PPid:\t4200
VmPeak:\t 5312804 kB
VmSize:\t 5247268 kB
VmLck:\t       0 kB
VmHWM:\t 1561232 kB
VmRSS:\t 1498076 kB
RssAnon:\t 1320448 kB
RssFile:\t  177628 kB
RssShmem:\t       0 kB
VmData:\t 1734512 kB
VmSwap:\t       0 kB
Threads:\t89
`;

const status = (name: string, rssKiB: number, hwmKiB: number) =>
  `Name:\t${name}\nVmHWM:\t${hwmKiB} kB\nVmRSS:\t${rssKiB} kB\nRssAnon:\t${rssKiB - 100} kB\nRssFile:\t100 kB\nRssShmem:\t0 kB\n`;

/** A fake /proc from file contents: a directory lists the names one level below it. */
function fakeProc(files: Record<string, string>): ProcReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read: async (path) => {
      reads.push(path);
      return files[path];
    },
    list: async (path) => {
      const prefix = `${path}/`;
      const names = Object.keys(files)
        .filter((f) => f.startsWith(prefix))
        .map((f) => f.slice(prefix.length).split('/')[0] as string);
      return names.length > 0 ? [...new Set(names)] : undefined;
    },
  };
}

describe('/proc parsing', () => {
  it('reads VmRSS, VmHWM and the RSS split from a status file, in bytes', () => {
    expect(parseStatus(STATUS_FIXTURE)).toEqual({
      name: 'java',
      rssBytes: 1498076 * 1024,
      hwmBytes: 1561232 * 1024,
      rssAnonBytes: 1320448 * 1024,
      rssFileBytes: 177628 * 1024,
      rssShmemBytes: 0,
    });
  });

  it('has nothing for a process without memory fields (a zombie or a kernel thread)', () => {
    expect(parseStatus('Name:\tnode\nState:\tZ (zombie)\nPid:\t7\n')).toBeUndefined();
  });

  it('takes the ppid after the last parenthesis, whatever the command name holds', () => {
    expect(parseStatPpid('812 (node) S 800 812 800 0 -1 4194560 1 0')).toBe(800);
    expect(parseStatPpid('813 (a) b (c)) R 1 813 813 0 -1')).toBe(1);
  });
});

describe('process tree memory', () => {
  // 100 (two threads) -> 101 (forked by thread 100), 102 (forked by thread 105); 101 -> 103.
  const tree = {
    '/proc/100/status': status('node', 200_000, 250_000),
    '/proc/100/task/100/children': '101 ',
    '/proc/100/task/105/children': '102 ',
    '/proc/101/status': status('worker', 10_000, 12_000),
    '/proc/101/task/101/children': '103 ',
    '/proc/102/status': status('helper', 5_000, 6_000),
    '/proc/102/task/102/children': '',
    '/proc/103/status': status('grandchild', 1_000, 1_000),
    '/proc/103/task/103/children': '',
    // Not in the tree: another process on the machine.
    '/proc/200/status': status('other', 999_999, 999_999),
    '/proc/200/task/200/children': '',
  };

  it('finds children of every thread and their children', async () => {
    expect((await descendants(100, fakeProc(tree))).sort()).toEqual([101, 102, 103]);
  });

  it('sums RSS and peaks over the tree and lists each process', async () => {
    const result = await processTreeMemory(100, fakeProc(tree));
    if ('error' in result) throw new Error(result.error);
    const d = result.detail;
    expect(d.rssBytes).toBe((200_000 + 10_000 + 5_000 + 1_000) * 1024);
    expect(d.hwmBytes).toBe((250_000 + 12_000 + 6_000 + 1_000) * 1024);
    expect(d.rssFileBytes).toBe(4 * 100 * 1024);
    expect(d.processes.map((p) => [p.pid, p.name])).toEqual([
      [100, 'node'],
      [101, 'worker'],
      [102, 'helper'],
      [103, 'grandchild'],
    ]);
  });

  it("names each process by its program (argv[0]'s file name), not its main thread's name", async () => {
    const renamed = {
      ...tree,
      // Node 24 names its main thread "MainThread", and that is what the status file says.
      '/proc/100/status': status('MainThread', 200_000, 250_000),
      '/proc/100/cmdline': '/work/node_modules/node/bin/node\0server.js\0--port\0\0',
    };
    const result = await processTreeMemory(100, fakeProc(renamed));
    if ('error' in result) throw new Error(result.error);
    expect(result.detail.processes.map((p) => p.name)).toEqual(['node', 'worker', 'helper', 'grandchild']);
  });

  it('leaves out a child that exits while being read', async () => {
    const { '/proc/102/status': _gone, ...rest } = tree;
    const result = await processTreeMemory(100, fakeProc(rest));
    if ('error' in result) throw new Error(result.error);
    expect(result.detail.processes.map((p) => p.pid)).toEqual([100, 101, 103]);
  });

  it('falls back to the ppid in every /proc/<n>/stat when the kernel has no children files', async () => {
    const proc = fakeProc({
      '/proc/100/status': status('node', 200_000, 250_000),
      '/proc/100/task/100/stat': '100 (node) S 1 100',
      '/proc/100/stat': '100 (node) S 1 100',
      '/proc/101/stat': '101 (worker) S 100 100',
      '/proc/101/status': status('worker', 10_000, 12_000),
      '/proc/102/stat': '102 (w (x)) S 101 100',
      '/proc/102/status': status('w (x)', 3_000, 3_000),
      '/proc/200/stat': '200 (other) S 1 200',
      '/proc/200/status': status('other', 999_999, 999_999),
    });
    const result = await processTreeMemory(100, proc);
    if ('error' in result) throw new Error(result.error);
    expect(result.detail.processes.map((p) => p.pid)).toEqual([100, 101, 102]);
    expect(result.detail.rssBytes).toBe(213_000 * 1024);
  });

  it('is an error, not a zero, when the process itself is gone', async () => {
    const result = await processTreeMemory(300, fakeProc(tree));
    expect(result).toEqual({ error: '/proc/300/status not found: the process is gone' });
  });

  it('reads this very process through the real /proc', async () => {
    if (process.platform !== 'linux') return;
    const raw = await measureMemory({ role: 'candidate', pid: process.pid });
    expect(raw.supported).toBe(true);
    expect(raw.detail?.processes[0]?.pid).toBe(process.pid);
    // Within 20% of what Node itself reports (the two reads are not simultaneous).
    const rss = process.memoryUsage.rss();
    expect(raw.detail?.processes[0]?.rssBytes).toBeGreaterThan(rss * 0.8);
    expect(raw.detail?.processes[0]?.rssBytes).toBeLessThan(rss * 1.2);
  });
});

describe('memory row', () => {
  const proc = fakeProc({
    '/proc/10/status': status('node', 250 * 1024, 400 * 1024),
    '/proc/10/task/10/children': '',
    '/proc/20/status': status('java', 1500 * 1024, 1600 * 1024),
    '/proc/20/task/20/children': '',
  });
  const candidate = () => measureMemory({ role: 'candidate', pid: 10 }, 0, proc);
  const baseline = () =>
    measureMemory({ role: 'baseline', pid: 20, jvmHeap: '-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch' }, 0, proc);

  it('is N/A, and says why, for an engine given by URL: no /proc is read for it', async () => {
    const reads = fakeProc({});
    const remote = await measureMemory({ role: 'baseline', pid: undefined }, 0, reads);
    expect(remote).toEqual({
      supported: false,
      error: 'not measured: given by --baseline-url, so the harness has no process of it to read /proc from',
      restarts: 0,
    });
    expect(reads.reads).toEqual([]);
    const row = memoryRowResult({ candidate: await candidate(), baseline: remote }, 0.1);
    expect(row.verdict).toBe('N/A');
    expect(row.ratio).toBeUndefined();
    expect(row.reason).toMatch(/^not comparable, baseline: not measured: given by --baseline-url/);
    // The side that was measured keeps its figure.
    expect(row.candidate.value).toBe(250 * MiB);
  });

  it('from node stats, a JVM lower bound lets only a WIN through; anything else is N/A', async () => {
    const byUrl = (bytes: number, lowerBound: boolean) =>
      measureNodeStatsMemory({
        restarts: 0,
        json: async (_method: string, path: string) =>
          path.endsWith('/process')
            ? {
                status: 200,
                body: {
                  nodes: {
                    n: { name: 'os', process: { mem: lowerBound ? {} : { resident_in_bytes: bytes } } },
                  },
                },
              }
            : {
                status: 200,
                body: {
                  nodes: {
                    n: {
                      name: 'os',
                      jvm: { mem: { heap_committed_in_bytes: bytes, non_heap_committed_in_bytes: 0 } },
                    },
                  },
                },
              },
      });
    const win = memoryRowResult(
      { candidate: await byUrl(100 * MiB, false), baseline: await byUrl(600 * MiB, true) },
      0.1,
    );
    expect(win.verdict, win.reason).toBe('WIN');
    expect(win.reason).toMatch(
      /baseline by URL, from _nodes\/stats jvm.mem.heap_committed_in_bytes .*lower bound/,
    );
    for (const candidateBytes of [700 * MiB, 590 * MiB]) {
      const row = memoryRowResult(
        { candidate: await byUrl(candidateBytes, false), baseline: await byUrl(600 * MiB, true) },
        0.1,
      );
      expect(row.verdict, row.reason).toBe('N/A');
      expect(row.reason).toMatch(
        /^not comparable: the baseline figure is a lower bound, so a (LOSE|TIE) could be/,
      );
      expect(row.ratio).toBeUndefined();
    }
  });

  it('lower is better: baseline RSS / candidate RSS, WIN beyond the margin, with the JVM heap in the reason', async () => {
    const row = memoryRowResult({ candidate: await candidate(), baseline: await baseline() }, 0.1);
    expect(row).toMatchObject({
      id: 'memory.rss',
      group: 'memory',
      unit: 'bytes',
      betterIs: 'lower',
      ratio: 6,
      verdict: 'WIN',
    });
    expect(row.baseline.value).toBe(1500 * MiB);
    expect(row.baseline.memory?.jvmHeap).toBe('-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch');
    expect(row.reason).toMatch(/ratio 6\.000 from one measurement per engine \(no interval\)/);
    expect(row.reason).toMatch(
      /candidate node pid 10: peak \(VmHWM\) 400\.0 MiB, anon 249\.9 MiB \+ file 0\.1 MiB/,
    );
    expect(row.reason).toMatch(
      /baseline java pid 20: .*JVM heap -Xms1024m -Xmx1024m -XX:\+AlwaysPreTouch: the whole heap is resident/,
    );
    expect(row.reason).not.toMatch(/candidate [^;]*JVM heap/);
  });

  it('LOSE when the candidate holds more beyond the margin, TIE inside it', async () => {
    const side = async (kib: number, pid: number) =>
      measureMemory(
        { role: 'candidate', pid },
        0,
        fakeProc({
          [`/proc/${pid}/status`]: status('x', kib, kib),
          [`/proc/${pid}/task/${pid}/children`]: '',
        }),
      );
    const lose = memoryRowResult({ candidate: await side(1200, 1), baseline: await side(1000, 2) }, 0.1);
    expect(lose.verdict).toBe('LOSE');
    const tie = memoryRowResult({ candidate: await side(1050, 1), baseline: await side(1000, 2) }, 0.1);
    expect(tie.verdict).toBe('TIE');
  });

  it('renders in SCORECARD.md with its methodology, which older cards without the row do not get', async () => {
    const row = memoryRowResult({ candidate: await candidate(), baseline: await baseline() }, 0.1);
    const md = renderMarkdown(card([row]));
    expect(md).toMatch(
      /\| `memory\.rss` \| .* \| 250 MiB \| 1,500 MiB \| 6x \| - \| - \| - \| \*\*WIN\*\* \|/,
    );
    expect(md).toContain('- **Memory** (`memory.rss`)');
    expect(md).toContain('only beyond the 10% margin. An engine given by URL');
    expect(renderMarkdown(card([]))).not.toContain('**Memory**');
  });
});

describe('engine CPU time from /proc', () => {
  it('sums the on-CPU ns of every thread of the process and its descendants', async () => {
    const proc = fakeProc({
      '/proc/10/task/10/schedstat': '1000 5 7\n',
      '/proc/10/task/11/schedstat': '2500 0 1\n',
      '/proc/10/task/10/children': '20 ',
      '/proc/10/task/11/children': '',
      '/proc/20/task/20/schedstat': '400 1 1\n',
      '/proc/20/task/20/children': '',
      // Not a descendant of 10: left out.
      '/proc/30/task/30/schedstat': '99999 0 0\n',
    });
    expect(await treeCpuNs(10, proc)).toBe(3900);
  });

  it('is undefined for a process that is gone', async () => {
    expect(await treeCpuNs(10, fakeProc({}))).toBeUndefined();
  });

  it('grows with the work this very process does', async () => {
    const before = (await treeCpuNs(process.pid)) as number;
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += Math.sqrt(i);
    const after = (await treeCpuNs(process.pid)) as number;
    expect(x).toBeGreaterThan(0);
    // Twenty million square roots take milliseconds of CPU whatever else the machine does.
    expect(after - before).toBeGreaterThan(1e6);
  });
});
