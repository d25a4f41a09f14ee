import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CountSetup, countBuilds, type PreparedCount } from '../workcount/compareBuilds.js';
import { requestStream, toNdjson } from '../workcount/requestStream.js';
import type { RunnerBinary } from '../workcount/runnerBuild.js';

/** Iterations of the smaller probe: enough that the loop dwarfs any other difference between the runs. */
const PROBE_ITERATIONS = 1_000_000;

/**
 * The plant loop's instructions per iteration, measured: one row's single request counted with
 * the plant at PROBE_ITERATIONS and at twice as many; the difference over PROBE_ITERATIONS. Two
 * loops of different lengths, not a loop against none: the loop's own entry and exit (a few
 * instructions) cancel out, where against none they were spread over the iterations (5.000015
 * per iteration for 5), and a plant sized from that fell short of its share by a hair.
 */
export async function measurePlantCost(
  setup: CountSetup,
  prepared: PreparedCount,
  runner: RunnerBinary,
  row: string,
): Promise<{ instructionsPerIteration: number; probeIterations: number }> {
  const family = setup.families.find((f) => f.id === row);
  if (!family) throw new Error(`no read row ${row}`);
  const requestsFile = join(setup.workDir, 'plant-probe.ndjson');
  await writeFile(
    requestsFile,
    toNdjson(requestStream([family], setup.corpus.index, setup.seed, { warmup: 2, timed: 1 })),
  );
  const [short, long] = await countBuilds(setup, { ...prepared, requestsFile }, [
    { name: 'plant probe (short loop)', runner, plant: `${row}=${PROBE_ITERATIONS}` },
    { name: 'plant probe (long loop)', runner, plant: `${row}=${2 * PROBE_ITERATIONS}` },
  ]);
  const instructions = (c: typeof short) => c?.rows[0]?.instructions ?? Number.NaN;
  return {
    instructionsPerIteration: (instructions(long) - instructions(short)) / PROBE_ITERATIONS,
    probeIterations: PROBE_ITERATIONS,
  };
}
