// The browser tests' fixtures (@playwright/test's test.extend) and the few helpers they share.
//
// Each test gets its own `parley serve` (`--port 0`, a fresh data dir, a copy of the scripted team
// in team/ or of the one the test names) and its own browser context of Debian's Chromium (the
// worker's browser, launched as playwright.config.mjs says), and both are stopped at its end: the
// context first, then the server. The page may not throw, and its console may hold no error (nor a
// PubChan packet the page left out) unless the test names it in `consoleAllows`: both are checked
// after the test's own steps. Options a test sets with test.use:
//   serverOptions: { team: 'examples/demo' (from the repository), token: '…', args: ['--…'] }
//   consoleAllows: /RegExp/ (one: an array would be taken for a fixture's [value, options])
//   viewport: { width, height }   launchOptions (Chromium's flags: a file's own test.use)
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { layoutBaseline } from './layout_baseline.mjs';
import { CHROMIUM, CHROMIUM_ARGS, here, outDir, parleyBinary, sourceDir, webDist } from './environment.mjs';

export { expect };
export const teamDir = join(here, 'team');
export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['390×844', PHONE],
];
/** Chromium launched with flags of its own besides the usual ones (a worker of its own). */
export const chromiumWith = (...args) => ({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });

export const tid = (id) => `[data-testid="${id}"]`;

/** For toContainText on a locator that may match several elements: passes when any one of them
 *  contains `text` exactly as written (a RegExp of it, so neither case nor whitespace is folded). */
export const anyWith = (text) => [new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))];

/** The first matching element's text, as it is now (no waiting for it to change). */
export const textOf = async (page, selector) => (await page.locator(selector).first().textContent()) ?? '';

/** The server's dialogs, asked with the real token. */
export async function dialogsOf(server) {
  const url = new URL(server.url);
  const res = await fetch(`${url.origin}/api/dialogs`, { headers: { Authorization: `Bearer ${url.hash.slice(7)}` } });
  expect(res.status, `GET /api/dialogs with the token: ${res.status}`).toBe(200);
  return res.json();
}

/** Opens the UI and waits until it says it is ready. */
export async function gotoApp(page, url) {
  await page.goto(url);
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
}

// ---- the server ----

/** Starts `parley serve` and resolves once it printed the `serving http://…` line. */
function startParley({ token, port = 0, data = null, args: extraArgs = [], team = teamDir } = {}) {
  const reuse = data !== null;
  data ??= mkdtempSync(join(tmpdir(), 'parley-e2e-data-'));
  // The team folder is the workspace (Taskdocs are written there): use a copy, never the sources.
  if (!reuse) cpSync(team, join(data, 'team'), { recursive: true });
  const args = ['serve', '--port', String(port), '--data', join(data, 'store'), '--team', join(data, 'team', 'team.yaml'), '--web', webDist()];
  if (token) args.push('--token', token);
  args.push(...extraArgs);
  // The scripted model whatever the developer's environment says (the demo team would use a real one).
  const env = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[key];
  const proc = spawn(parleyBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const server = {
    proc,
    data,
    get log() {
      return `--- parley stdout ---\n${stdout}\n--- parley stderr ---\n${stderr}`;
    },
    keepData: false,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!server.keepData) rmSync(data, { recursive: true, force: true });
    },
  };
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`parley serve printed no 'serving http://' line in 15 s\n${server.log}`));
    }, 15000);
    proc.stdout.on('data', (d) => {
      stdout += d;
      const m = /serving (http:\/\/\S+)/.exec(stdout);
      if (m && !server.url) {
        server.url = m[1];
        clearTimeout(timer);
        resolveStart(server);
      }
    });
    proc.once('exit', (code, signal) => {
      if (!server.url) {
        clearTimeout(timer);
        reject(new Error(`parley serve exited (${code ?? signal}) before serving\n${server.log}`));
      }
    });
  });
}

// ---- screenshots ----

const layout = layoutBaseline(join(here, 'layout-baseline.json'), process.env.PARLEY_UPDATE_SNAPSHOTS === '1');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const hasSize = (box) => Boolean(box && box.width >= 4 && box.height >= 4);

// Takes the screenshot (into $PARLEY_E2E_OUT/NAME.png) and looks at it: each key element (a
// selector) must lie inside the captured viewport with a real size, where the layout baseline has
// it (layout_baseline.mjs), and its own crop must not be blank (a single-colour crop compresses to
// a few hundred bytes, anything with text or an icon does not).
async function checkedScreenshot(page, testInfo, name, keyElements) {
  const file = join(outDir(), `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  const bytes = readFileSync(file);
  expect(statSync(file).size > 1000, `screenshot ${file} is too small`).toBeTruthy();
  expect(bytes.subarray(0, 8).equals(PNG_MAGIC), `${file} is not a PNG`).toBeTruthy();
  const view = page.viewportSize();
  for (const key of keyElements) {
    // `{ selector, growing: true }`: a block still streaming, whose height is the moment's.
    const { selector, growing = false } = typeof key === 'string' ? { selector: key } : key;
    const element = page.locator(selector).first();
    // A view that redraws while polling (the ToT tree) can replace the element between two looks:
    // the locator finds the new one on the next (five more looks, 200 ms apart).
    let box = await element.boundingBox();
    if (!hasSize(box)) {
      await expect
        .poll(async () => hasSize((box = await element.boundingBox())), {
          message: `${name}: ${selector} has no size in the screenshot`,
          intervals: [200],
          timeout: 1000,
        })
        .toBe(true);
    }
    const inside = box.x < view.width && box.y < view.height && box.x + box.width > 0 && box.y + box.height > 0;
    expect(inside, `${name}: ${selector} is outside the captured viewport`).toBeTruthy();
    const moved = layout.check(name, selector, box, view, { growing });
    expect(moved, moved ?? '').toBeNull();
    // The region where it was measured, not the element again: a streaming block that collapses
    // as its generation ends, or a view that redraws, cannot make the capture wait or miss.
    const clip = {
      x: Math.max(0, box.x),
      y: Math.max(0, box.y),
      width: Math.min(box.width, view.width - Math.max(0, box.x)),
      height: Math.min(box.height, view.height - Math.max(0, box.y)),
    };
    const crop = await page.screenshot({ clip, animations: 'disabled' });
    expect(crop.subarray(0, 8).equals(PNG_MAGIC) && crop.length > 300, `${name}: ${selector} looks blank in the screenshot`).toBeTruthy();
  }
  // Recording a new baseline: the runner's process writes it (layout_reporter.mjs).
  if (process.env.PARLEY_UPDATE_SNAPSHOTS === '1' && layout.seenFor(name)) {
    await testInfo.attach('layout', { body: JSON.stringify({ [name]: layout.seenFor(name) }), contentType: 'application/json' });
  }
  return file;
}

// ---- the fixtures ----

export const test = base.extend({
  serverOptions: [{}, { option: true }],
  consoleAllows: [null, { option: true }],

  /** Starts a `parley serve` ({ token, port, data, args, team }); every one started is stopped at
   *  the end of the test, after the browser context closed. A failed test gets their logs. */
  startServer: async ({}, use, testInfo) => {
    const started = [];
    await use(async (options = {}) => {
      const server = await startParley({ ...options, team: options.team ? join(sourceDir(), options.team) : teamDir });
      started.push(server);
      return server;
    });
    if (testInfo.status !== testInfo.expectedStatus) {
      started.forEach((server, i) => {
        const file = testInfo.outputPath(`parley-${i + 1}.log`);
        writeFileSync(file, `${server.log}\n`);
        testInfo.attachments.push({ name: `parley serve log (${i + 1})`, path: file, contentType: 'text/plain' });
      });
      const last = started.at(-1);
      if (last) {
        const tail = last.log.split('\n').slice(-30).join('\n');
        await testInfo.attach('parley serve, last 30 lines', { body: tail, contentType: 'text/plain' });
      }
    }
    for (const server of started.reverse()) await server.stop().catch(() => {});
  },

  /** The test's own server, started with its serverOptions. */
  server: async ({ startServer, serverOptions }, use) => {
    await use(await startServer(serverOptions));
  },

  // The browser context (Playwright's, one per test) depends on the server only for the order: the
  // server is started before it and stopped once it is closed (a failed test's screenshot and
  // trace show the page as the test left it, not a page whose server went away).
  context: async ({ server, context }, use) => {
    await use(context);
  },

  page: async ({ context, page, consoleAllows }, use, testInfo) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // The console must stay free of errors too: a failed request or a logged exception is a defect.
    // So is a PubChan packet the page left out because it does not match docs/protocol-v1.json.
    const consoleErrors = [];
    const isDefect = (m) => m.type() === 'error' || (m.type() === 'warning' && m.text().startsWith('PubChan: packet ignored'));
    context.on('console', (m) => isDefect(m) && consoleErrors.push(`${m.text()} (${m.location().url ?? ''})`));
    await use(page);
    // Checked once the test's own steps passed (a failure is the first thing that went wrong, and
    // what the page threw goes with it).
    if (testInfo.status !== testInfo.expectedStatus) {
      if (errors.length) await testInfo.attach('page errors', { body: errors.join('\n'), contentType: 'text/plain' });
      return;
    }
    expect(errors.length === 0, `the page threw: ${errors.join(' | ')}`).toBeTruthy();
    // A test that provokes errors on purpose (a wrong token, a server that is down, another site's
    // page) names what it expects; anything else in the console fails it.
    const unexpected = consoleErrors.filter((e) => !consoleAllows?.test(e));
    expect(unexpected.length === 0, `the console has errors: ${unexpected.join(' | ')}`).toBeTruthy();
  },

  /** takeScreenshot(name, keyElements): see checkedScreenshot. */
  takeScreenshot: async ({ page }, use, testInfo) => {
    await use((name, keyElements = []) => checkedScreenshot(page, testInfo, name, keyElements));
  },
});
