import { ensureBaselineBuilt } from './opensearch.js';

/** `npm run build:baseline`: build the OpenSearch baseline with Maven if it is missing or stale. */
ensureBaselineBuilt({ log: (line) => console.log(line) }).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(2);
  },
);
