/**
 * The flags of the shortest run that still goes through every stage (two forks of two rounds,
 * a handful of requests), against two engines given by URL; tests add what they are about.
 */
export const shortRunArgs = (candidateUrl: string, baselineUrl: string): string[] => [
  '--candidate-url',
  candidateUrl,
  '--baseline-url',
  baselineUrl,
  '--iterations',
  '8',
  '--warmup',
  '1',
  '--prewarm',
  '2',
  '--forks',
  '2',
  '--max-forks',
  '2',
  '--rounds',
  '2',
  '--rate',
  '300',
  '--max-send-lag-ms',
  '10000',
  '--no-sweep',
  '--no-mixed',
];
