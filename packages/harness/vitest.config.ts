import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end and engine tests start real engines and measure timing: running test files
    // side by side on a 2-core machine would make them measure each other.
    fileParallelism: false,
    testTimeout: 20_000,
  },
});
