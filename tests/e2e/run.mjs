#!/usr/bin/env node
// Browser tests of the web UI: @playwright/test drives Debian's Chromium against a real
// `parley serve`. This is the entry CMake runs (tests/e2e/CMakeLists.txt); it checks what the
// tests need, then runs `playwright test` with playwright.config.mjs and exits with its status.
//
//   PARLEY_BINARY=BUILD/apps/parley/parley node run.mjs [--only NAME] [-- PLAYWRIGHT-ARGS…]
//
// The environment says what to test: PARLEY_BINARY (the binary), PARLEY_SOURCE (the repository,
// default ../..: web/dist, examples/), PARLEY_E2E_OUT (screenshots, and test-results/ with the
// trace and screenshot of each failed test; default SOURCE/build/e2e-screenshots).
// `--parley PATH`, `--source DIR` and `--out DIR` set the same. `--only NAME` runs the tests whose
// title contains NAME; anything after `--` goes to `playwright test` as it is (`--headed` cannot
// work here: there is no display). PARLEY_UPDATE_SNAPSHOTS=1 records a new layout baseline.
//
// The tests are web_ui_tests.mjs, media_tests.mjs, tot_tests.mjs, flow_tests.mjs, history_tests.mjs
// (10,000 dialogs, and the UI's figures as one JSON line), runs_tests.mjs (eval runs, side by side,
// fork) and a11y_tests.mjs (Playwright's
// project `ui`, `-- --project ui`), and cluster_tests.mjs (project `cluster`: two nodes on the
// PostgreSQL test cluster ctest starts, named by PARLEY_TEST_PG_URL_FILE); each gets its own server
// and browser context (fixtures.mjs). Exits 1 when any test failed, when none ran, or
// when the binary, /usr/bin/chromium, web/dist or node_modules is missing (it says what to run:
// scripts/setup.sh installs them; a missing piece fails the run, it never skips a test).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { here, missingPrerequisite, playwrightCli } from './environment.mjs';

const flags = { '--parley': 'PARLEY_BINARY', '--source': 'PARLEY_SOURCE', '--out': 'PARLEY_E2E_OUT' };
const argv = process.argv.slice(2);
const passOn = [];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--') {
    passOn.push(...argv.slice(i + 1));
    break;
  } else if (arg in flags && i + 1 < argv.length) {
    process.env[flags[arg]] = resolve(argv[++i]);
  } else if (arg === '--only' && i + 1 < argv.length) {
    passOn.push('--grep', argv[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  } else {
    console.error(`e2e: unknown option ${arg} (see the top of ${join(here, 'run.mjs')})`);
    process.exit(1);
  }
}

// Paths as given here, for a runner that works in tests/e2e/.
for (const key of Object.values(flags)) if (process.env[key]) process.env[key] = resolve(process.env[key]);

const problem = missingPrerequisite();
if (problem) {
  console.error(`e2e: ${problem}`);
  process.exit(1);
}

// Chromium is Debian's: nothing may download one.
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const child = spawn(process.execPath, [playwrightCli(), 'test', '--config', join(here, 'playwright.config.mjs'), ...passOn], {
  cwd: here,
  env,
  stdio: 'inherit',
});
// CTest's timeout (or ^C) ends the runner, which stops its server and browser.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) console.error(`e2e: playwright test ended by ${signal}`);
  process.exit(code ?? 1);
});
