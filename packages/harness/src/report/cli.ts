import { readFileSync, writeFileSync } from 'node:fs';
import { README, readCommittedCards } from './readmeFiles.js';
import { renderReadme } from './readmeResults.js';

/**
 * `npm run readme`: rewrites README.md's generated blocks from the committed cards;
 * `npm run readme -- --check` only says whether they are current (exit 1 when not).
 */
function main(argv: string[]): number {
  const check = argv.includes('--check');
  const before = readFileSync(README, 'utf8');
  const after = renderReadme(before, readCommittedCards());
  if (check) {
    if (after === before) return 0;
    console.error(
      'README.md: the generated results are not those of the committed cards: run `npm run readme`',
    );
    return 1;
  }
  if (after !== before) writeFileSync(README, after);
  console.log(
    after === before ? 'README.md is current' : 'README.md: results rewritten from the committed cards',
  );
  return 0;
}

process.exit(main(process.argv.slice(2)));
