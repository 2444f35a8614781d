// What the browser tests need and where they put things, shared by run.mjs (which must run before
// node_modules is known to be there, so this file imports nothing from it), playwright.config.mjs
// and fixtures.mjs. The paths come from the environment: PARLEY_BINARY (the `parley` to serve),
// PARLEY_SOURCE (the repository: web/dist, examples/), PARLEY_E2E_OUT (screenshots, traces).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** How long one step (an action, a navigation, an auto-waiting expect) may take. */
export const STEP_TIMEOUT = 20000;

export const parleyBinary = () => process.env.PARLEY_BINARY ?? '';
export const sourceDir = () => resolve(process.env.PARLEY_SOURCE || join(here, '..', '..'));
export const outDir = () => resolve(process.env.PARLEY_E2E_OUT || join(sourceDir(), 'build', 'e2e-screenshots'));
export const webDist = () => join(sourceDir(), 'web', 'dist');

/** The Playwright test runner's entry, or null when `npm ci` has not been run here. */
export function playwrightCli() {
  try {
    return createRequire(join(here, 'package.json')).resolve('@playwright/test/cli');
  } catch {
    return null;
  }
}

/** What is missing, as a sentence naming the fix, or null. A missing piece fails the run (never
 *  skips a test). */
export function missingPrerequisite() {
  const binary = parleyBinary();
  if (!binary || !existsSync(binary)) {
    return `the parley binary is missing: '${binary}' (set PARLEY_BINARY or pass --parley PATH)`;
  }
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing: run scripts/setup.sh (it installs Debian's chromium)`;
  if (!existsSync(join(webDist(), 'index.html'))) {
    return `${webDist()}/index.html is missing: run scripts/setup.sh (it runs npm ci and npm run build in web/)`;
  }
  if (!playwrightCli()) {
    return `${join(here, 'node_modules', '@playwright', 'test')} is missing: run scripts/setup.sh (it runs npm ci in tests/e2e/)`;
  }
  return null;
}
