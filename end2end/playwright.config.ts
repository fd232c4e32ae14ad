import { defineConfig } from '@playwright/test';

// The app as built by `trunk build --release` (dist/), served by serve.mjs on a port that
// `cargo xtask test` picks (ATTNLAB_E2E_PORT), in Debian's Chromium: Playwright never
// downloads a browser here.
const port = Number(process.env.ATTNLAB_E2E_PORT ?? 8081);
const chromium = process.env.ATTNLAB_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  reporter: 'list',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node serve.mjs ${port}`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
