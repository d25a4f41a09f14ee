import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit tests of the pure data preparation and the data layer; browser tests live in tests/.
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: { include: ['test/**/*.test.{ts,tsx}'], environment: 'node', testTimeout: 20_000 },
});
