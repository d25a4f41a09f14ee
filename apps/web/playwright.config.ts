import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests of the exported fixture site (built by scripts/build-fixture-site.ts).
 * BASE_URL points the tests at an already running site instead; otherwise our own static server
 * is started on a free port. The port goes into the environment so workers, which re-read this
 * file, agree with the runner.
 */
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';
process.env.EVERYCELL_TEST_PORT ??= execFileSync(process.execPath, [
  '-e',
  "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();
const port = process.env.EVERYCELL_TEST_PORT;
const baseURL = process.env.BASE_URL ?? `http://127.0.0.1:${port}${basePath}/`;
const isCI = Boolean(process.env.CI);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/artifacts',
  fullyParallel: true,
  forbidOnly: isCI,
  retries: isCI ? 2 : 0,
  workers: 2,
  timeout: 30_000,
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1360, height: 900 } } },
  ],
  webServer: process.env.BASE_URL
    ? undefined
    : {
        command: `npx tsx scripts/serve.ts --dir out-fixtures --port ${port}`,
        url: baseURL,
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
      },
});
