import type { Scorecard } from './schema.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * SCORECARD.md's account of a split run: on a shard's card, that it is one share of the matrix;
 * on a merged card, which shard measured which rows, on which machine, with which floor.
 */
export function shardLines(card: Scorecard): string[] {
  const { shard, shards } = card.manifest;
  if (shard) {
    const mine = Object.values(shard.assignment).filter((k) => k === shard.index).length;
    const all = Object.keys(shard.assignment).length;
    return [
      '## Shard',
      '',
      `This card is shard ${shard.index} of ${shard.count} of a split run (\`--shard ${shard.index}/${shard.count}\`): it measured ${mine} of the matrix's ${all} measurements, and its counts are of those only. \`npm run merge-cards\` joins the ${shard.count} shards into the matrix's card.`,
      '',
    ];
  }
  if (!shards || shards.length === 0) return [];
  const models = new Set(shards.map((s) => `${s.machine.cpuModel}|${s.machine.cores}`));
  const lines = [
    '## Shards',
    '',
    `Merged from ${shards.length} shards of one split run (\`npm run merge-cards\`). Every row was measured whole on one shard, both engines on that shard's machine, so each verdict compares like with like; ${models.size === 1 ? 'every shard ran on the same kind of machine' : 'the shards ran on different machines, so rows from different shards were measured on different hardware'}. The card's duration is its longest shard's, its floor the coarsest shard's.`,
    '',
    '| Shard | Run | Machine | Rows | Duration | Floor p50 / p99 (ms) | Status |',
    '|---|---|---|---|---|---|---|',
    ...shards.map(
      (s) =>
        `| ${s.index} | \`${s.runId}\` | ${s.machine.cpuModel}, ${s.machine.cores} cores | ${s.rows} | ${seconds(s.durationMs)} | ${s.floor ? `${s.floor.p50.toFixed(2)} / ${s.floor.p99.toFixed(2)}` : '-'} | ${s.status}${s.failure ? `: ${s.failure.replace(/\|/g, '\\|')}` : ''} |`,
    ),
    '',
  ];
  for (const s of shards) {
    const ids = card.rows.filter((r) => r.shard === s.index).map((r) => `\`${r.id}\``);
    if (ids.length > 0) lines.push(`- Shard ${s.index}: ${ids.join(', ')}`);
  }
  lines.push('');
  return lines;
}
