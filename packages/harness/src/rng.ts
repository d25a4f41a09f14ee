import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * The one source of randomness in the harness. Seeded so a corpus, a request sequence or a
 * bootstrap is reproducible from its seed alone; nothing may call Math.random().
 */
export class Rng {
  private readonly gen: RandomGenerator;

  constructor(seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
  }

  /** Derive an independent stream, e.g. one per row and round, from a base seed and labels. */
  static derive(seed: number, ...labels: (string | number)[]): Rng {
    let h = seed | 0;
    for (const label of labels) {
      for (const ch of String(label)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
      h = Math.imul(h ^ 0x7f, 0x01000193);
    }
    return new Rng(h);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return uniformFloat64(this.gen);
  }

  /** Uniform integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.gen, from, to);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Standard normal via Box-Muller (one value per call; simplicity beats the wasted twin). */
  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-space sigma: heavy right tail. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}
