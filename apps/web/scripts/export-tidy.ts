/** Tidying of Next's static export after it is written. */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Removes Next's client-router payloads (`index.txt`, `__next.*.txt`) from an export; returns how many. */
export function dropRouterPayloads(dir: string): number {
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/^(index|__next\..*)\.txt$/.test(entry.name)) continue;
    rmSync(join(entry.parentPath, entry.name));
    removed += 1;
  }
  return removed;
}
