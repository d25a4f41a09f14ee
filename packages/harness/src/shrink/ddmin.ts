/**
 * Delta debugging (Zeller and Hildebrandt's ddmin): the smallest subset of `items` the test still
 * fails on, to within one item (1-minimal) when the budget allows. Each test is a real experiment
 * (here: load documents into both engines and ask again), so the number of tests is bounded, and
 * what was reached when the budget ran out is returned with `complete: false`.
 */
export interface Budget {
  /** Tests at most. */
  tests: number;
  /** Wall-clock deadline, ms on performance.now()'s clock. */
  deadline: number;
}

export interface Minimized<T> {
  items: T[];
  tests: number;
  /** The search ended by itself (1-minimal), not by the budget. */
  complete: boolean;
}

export const outOfBudget = (budget: Budget, tests: number): boolean =>
  tests >= budget.tests || performance.now() >= budget.deadline;

export async function ddmin<T>(
  items: readonly T[],
  fails: (subset: T[]) => Promise<boolean>,
  budget: Budget,
): Promise<Minimized<T>> {
  let current = [...items];
  let n = 2;
  let tests = 0;
  const test = async (subset: T[]) => {
    tests++;
    return fails(subset);
  };
  while (current.length >= 2) {
    const size = Math.ceil(current.length / n);
    const chunks: T[][] = [];
    for (let i = 0; i < current.length; i += size) chunks.push(current.slice(i, i + size));
    let reduced = false;
    // A chunk alone that still fails: keep only it.
    for (const chunk of chunks) {
      if (outOfBudget(budget, tests)) return { items: current, tests, complete: false };
      if (await test(chunk)) {
        current = chunk;
        n = 2;
        reduced = true;
        break;
      }
    }
    // A complement that still fails: drop that chunk (with two chunks the complements are the chunks).
    if (!reduced && chunks.length > 2) {
      for (let k = 0; k < chunks.length; k++) {
        if (outOfBudget(budget, tests)) return { items: current, tests, complete: false };
        const complement = chunks.filter((_, j) => j !== k).flat();
        if (await test(complement)) {
          current = complement;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, 2 * n);
    }
  }
  return { items: current, tests, complete: true };
}
