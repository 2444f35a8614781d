// The browser tests' configuration for @playwright/test: Debian's Chromium (never a downloaded
// browser), one worker (a test's server and browser have a core; ctest runs other suites on the
// other), a trace and a screenshot kept for each failed test under $PARLEY_E2E_OUT/test-results.
//
//   cd tests/e2e && PARLEY_BINARY=…/apps/parley/parley npx playwright test -c playwright.config.mjs
//
// (from tests/e2e/, whose node_modules has the runner; run.mjs, which CMake runs, does the same).
// global_setup.mjs fails the run when the binary, chromium or web/dist is missing;
// layout_reporter.mjs writes the layout baseline when PARLEY_UPDATE_SNAPSHOTS=1.
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS, STEP_TIMEOUT, here, outDir } from './environment.mjs';

// Nothing here may fetch a browser: Chromium is Debian's.
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

export default defineConfig({
  testDir: here,
  testMatch: /_tests\.mjs$/,
  // Two sets, one ctest each: `ui` on one node each, `cluster` on several nodes sharing the
  // PostgreSQL test cluster ctest starts (cluster_tests.mjs). run.mjs without --project runs both.
  projects: [
    { name: 'ui', testIgnore: /cluster_tests\.mjs$/ },
    { name: 'cluster', testMatch: /cluster_tests\.mjs$/ },
  ],
  outputDir: `${outDir()}/test-results`,
  globalSetup: './global_setup.mjs',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // A stray test.only would leave the others out without failing: refused.
  forbidOnly: true,
  // A test's steps are bounded by STEP_TIMEOUT each; the whole by this.
  timeout: 120000,
  expect: { timeout: STEP_TIMEOUT },
  reporter: [['list'], ['./layout_reporter.mjs']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
    colorScheme: 'light',
    actionTimeout: STEP_TIMEOUT,
    navigationTimeout: STEP_TIMEOUT,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
