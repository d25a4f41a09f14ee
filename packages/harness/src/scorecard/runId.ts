/** Run ids sort by time and name the code: 20261122T023000Z-1a2b3c4. */
export function makeRunId(date: Date, revision: string): string {
  const stamp = date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const short = /^[0-9a-f]{7,}$/.test(revision) ? revision.slice(0, 7) : 'nogit';
  return `${stamp}-${short}`;
}
