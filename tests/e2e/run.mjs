#!/usr/bin/env node
// Browser tests of the web UI: playwright-core drives Debian's Chromium against a real `parley serve`.
//
//   node run.mjs --parley BUILD/apps/parley/parley --source REPO [--out DIR] [--only NAME]
//
// Each test starts its own server (`--port 0`, a fresh data dir, the scripted team in team/) and its
// own browser with a fresh profile, and stops both at the end. Prints `N passed, N failed`; exits 1
// when any test failed or something the tests need is missing (scripts/setup.sh installs it all).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerFlowTests } from './flow_tests.mjs';
import { layoutBaseline } from './layout_baseline.mjs';
import { registerMediaTests } from './media_tests.mjs';
import { registerTotTests } from './tot_tests.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STEP_TIMEOUT = 20000;

function parseArgs(argv) {
  const out = { parley: process.env.PARLEY_BINARY, source: resolve(here, '../..'), out: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in out)) throw new Error(`unknown option ${argv[i]}`);
    out[key] = argv[++i];
  }
  out.out ??= join(out.source, 'build', 'e2e-screenshots');
  return out;
}

// What the tests need, checked before any runs: a missing piece fails the run (never skips a test)
// and names the fix. Returns the parsed options, the web UI's folder and Chromium's launcher, or the
// problem.
function prepare() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    return { problem: e.message };
  }
  if (!opts.parley || !existsSync(opts.parley)) {
    return { problem: `the parley binary is missing: '${opts.parley ?? ''}' (pass --parley PATH)` };
  }
  if (!existsSync(CHROMIUM)) return { problem: `${CHROMIUM} is missing: run scripts/setup.sh (it installs Debian's chromium)` };
  const webDist = join(opts.source, 'web', 'dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    return { problem: `${webDist}/index.html is missing: run scripts/setup.sh (it runs npm ci and npm run build in web/)` };
  }
  try {
    return { opts, webDist, chromium: createRequire(join(here, 'package.json'))('playwright-core').chromium };
  } catch {
    return {
      problem: `${join(here, 'node_modules', 'playwright-core')} is missing: run scripts/setup.sh (it runs npm ci in tests/e2e/)`,
    };
  }
}

const { opts, webDist, chromium, problem } = prepare();
const teamDir = join(here, 'team');

// ---- the server ----

/** Starts `parley serve` and resolves once it printed the `serving http://…` line. */
function startServer({ token, port = 0, data = null, args: extraArgs = [], team = teamDir } = {}) {
  const reuse = data !== null;
  data ??= mkdtempSync(join(tmpdir(), 'parley-e2e-data-'));
  // The team folder is the workspace (Taskdocs are written there): use a copy, never the sources.
  if (!reuse) cpSync(team, join(data, 'team'), { recursive: true });
  const args = ['serve', '--port', String(port), '--data', join(data, 'store'), '--team', join(data, 'team', 'team.yaml'), '--web', webDist];
  if (token) args.push('--token', token);
  args.push(...extraArgs);
  // The scripted model whatever the developer's environment says (the demo team would use a real one).
  const env = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[key];
  const proc = spawn(opts.parley, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
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

// ---- the browser ----

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

async function openBrowser(extraArgs = [], viewport = DESKTOP) {
  const profile = mkdtempSync(join(tmpdir(), 'parley-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport,
    locale: 'en-US',
    colorScheme: 'light',
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The console must stay free of errors too: a failed request or a logged exception is a defect.
  const consoleErrors = [];
  // So is a PubChan packet the page left out because it does not match docs/protocol-v1.json.
  const isDefect = (m) => m.type() === 'error' || (m.type() === 'warning' && m.text().startsWith('PubChan: packet ignored'));
  context.on('console', (m) => isDefect(m) && consoleErrors.push(`${m.text()} (${m.location().url ?? ''})`));
  return {
    context,
    page,
    errors,
    consoleErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// ---- assertions ----

class AssertionError extends Error {}
function assert(cond, message) {
  if (!cond) throw new AssertionError(message);
}

const tid = (id) => `[data-testid="${id}"]`;

async function visible(page, selector, what) {
  await page.locator(selector).first().waitFor({ state: 'visible' }).catch((e) => {
    throw new AssertionError(`${what ?? selector} is not visible: ${e.message.split('\n')[0]}`);
  });
}

async function textOf(page, selector) {
  return (await page.locator(selector).first().textContent()) ?? '';
}

/** Waits until `selector`'s text contains `text`. */
async function waitText(page, selector, text, what) {
  await page
    .waitForFunction(
      ([sel, t]) => [...document.querySelectorAll(sel)].some((el) => (el.textContent ?? '').includes(t)),
      [selector, text],
      { timeout: STEP_TIMEOUT },
    )
    .catch(async () => {
      throw new AssertionError(`${what ?? selector} never contained '${text}' (it has '${await textOf(page, selector).catch(() => '?')}')`);
    });
}

async function waitAttr(page, selector, attr, value, what) {
  await page
    .waitForFunction(
      ([sel, a, v]) => document.querySelector(sel)?.getAttribute(a) === v,
      [selector, attr, value],
      { timeout: STEP_TIMEOUT },
    )
    .catch(async () => {
      const now = await page.locator(selector).first().getAttribute(attr).catch(() => null);
      throw new AssertionError(`${what ?? selector} never had ${attr}=${value} (it has ${now})`);
    });
}

const shots = [];
const layout = layoutBaseline(join(here, 'layout-baseline.json'), process.env.PARLEY_UPDATE_SNAPSHOTS === '1');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Takes the screenshot and looks at it: each key element (a selector) must lie inside the captured
// viewport with a real size, where the layout baseline has it (layout_baseline.mjs), and its own
// crop must not be blank (a single-colour crop compresses to a few hundred bytes, anything with
// text or an icon does not).
async function screenshot(page, name, keyElements = []) {
  const file = join(opts.out, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  const bytes = readFileSync(file);
  assert(statSync(file).size > 1000, `screenshot ${file} is too small`);
  assert(bytes.subarray(0, 8).equals(PNG_MAGIC), `${file} is not a PNG`);
  const view = page.viewportSize();
  for (const key of keyElements) {
    // `{ selector, growing: true }`: a block still streaming, whose height is the moment's.
    const { selector, growing = false } = typeof key === 'string' ? { selector: key } : key;
    const element = page.locator(selector).first();
    // A view that redraws while polling (the ToT tree) can replace the element between two looks:
    // the locator finds the new one on the next.
    let box = await element.boundingBox();
    for (let attempt = 0; attempt < 5 && !(box && box.width >= 4 && box.height >= 4); attempt++) {
      await page.waitForTimeout(200);
      box = await element.boundingBox();
    }
    assert(box && box.width >= 4 && box.height >= 4, `${name}: ${selector} has no size in the screenshot`);
    const inside = box.x < view.width && box.y < view.height && box.x + box.width > 0 && box.y + box.height > 0;
    assert(inside, `${name}: ${selector} is outside the captured viewport`);
    const moved = layout.check(name, selector, box, view, { growing });
    assert(moved === null, moved);
    // The region where it was measured, not the element again: a streaming block that collapses
    // as its generation ends, or a view that redraws, cannot make the capture wait or miss.
    const clip = {
      x: Math.max(0, box.x),
      y: Math.max(0, box.y),
      width: Math.min(box.width, view.width - Math.max(0, box.x)),
      height: Math.min(box.height, view.height - Math.max(0, box.y)),
    };
    const crop = await page.screenshot({ clip, animations: 'disabled' });
    assert(crop.subarray(0, 8).equals(PNG_MAGIC) && crop.length > 300, `${name}: ${selector} looks blank in the screenshot`);
  }
  shots.push(file);
  return file;
}

async function gotoApp(page, url) {
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
}

// Records every length the first thinking block had, to tell a stream from one final write.
const RECORD_THINKING = () => {
  window.__thinkingLengths = [];
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid="thinking-body"]');
    if (!el) return;
    const n = (el.textContent ?? '').length;
    const seen = window.__thinkingLengths;
    if (seen[seen.length - 1] !== n) seen.push(n);
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

// ---- the tests ----

const tests = [];
const test = (name, fn, extra = {}) => tests.push({ name, fn, extra });

test('hierarchy: stream, subdialog, Q4H answered inline, root completes', async ({ server, page }) => {
  await page.addInitScript(RECORD_THINKING);
  await gotoApp(page, server.url);
  await visible(page, tid('offline-banner'), 'the scripted-offline banner');
  await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket status');
  await waitText(page, tid('members'), '@clerk', 'the team panel');
  assert((await page.locator(tid('member')).count()) === 2, 'the team panel lists 2 members');
  await waitAttr(page, tid('q4h-badge'), 'data-count', '0', 'the Q4H badge');

  // Start a dialog with the lead.
  await page.locator(tid('new-member')).selectOption('lead');
  await page.locator(tid('new-content')).fill('Plan the launch');
  await page.locator(tid('new-start')).click();
  await visible(page, tid('thinking-body'), 'the streamed thinking');
  await visible(page, `${tid('transcript')} .streaming`, 'a segment still streaming');
  // While it streams, the thinking block and the tree node's live line are as tall as the moment.
  await screenshot(page, '01-streaming', [
    { selector: tid('thinking-body'), growing: true },
    tid('offline-banner'),
    { selector: tid('tree-node'), growing: true },
  ]);
  await waitText(page, tid('saying'), 'I will ask the clerk', 'the streamed saying');
  assert((await page.locator(`${tid('saying')} strong`).first().textContent()) === 'clerk', 'saying is rendered as markdown (**clerk** → <strong>)');
  await waitText(page, tid('msg-user'), 'Plan the launch', 'the user message');
  const lengths = await page.evaluate(() => window.__thinkingLengths);
  const full = lengths[lengths.length - 1];
  const partial = lengths.filter((n) => n > 0 && n < full);
  assert(partial.length >= 3, `thinking streamed in chunks (lengths seen: ${lengths.join(',')})`);
  assert((await page.locator(tid('dialog-list') + ' ' + tid('dialog-item')).count()) >= 1, 'the new dialog is in the list');

  // The Tellask makes a subdialog: it appears in the tree, and the call links to it.
  await visible(page, `${tid('tree-node')}[data-member="clerk"]`, 'the clerk subdialog in the tree');
  await visible(page, tid('tellask-call'), 'the tellaskSessionless call');
  await visible(page, tid('tellask-link'), 'the link from the Tellask call to its subdialog');
  const subId = await page.locator(`${tid('tree-node')}[data-member="clerk"]`).first().getAttribute('data-id');

  // The clerk asks the human: the badge counts it.
  await waitAttr(page, tid('q4h-badge'), 'data-count', '1', 'the Q4H badge');
  await visible(page, tid('q4h-item'), 'the question in the Q4H panel');
  await waitText(page, tid('q4h-list'), 'Which day?', 'the Q4H panel');
  await screenshot(page, '02-q4h', [tid('q4h-badge'), tid('q4h-item')]);

  // Follow the question to its call site and answer it in the input box.
  await page.locator(tid('q4h-link')).first().click();
  await page.waitForFunction((id) => document.querySelector('[data-testid="transcript"]')?.getAttribute('data-dialog') === id, subId);
  await waitText(page, tid('dialog-title'), '@clerk', 'the dialog title');
  await visible(page, tid('askhuman-call'), 'the askHuman call site');
  assert(await page.locator(tid('askhuman-call')).first().isVisible(), 'the askHuman call is on screen');
  const inView = await page
    .locator(tid('askhuman-call'))
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const sc = document.querySelector('[data-testid="transcript-scroll"]').getBoundingClientRect();
      return r.bottom > sc.top && r.top < sc.bottom;
    });
  assert(inView, 'the askHuman call is scrolled into view');
  await visible(page, tid('answer-mode'), 'the answer mode of the input box');
  await waitText(page, tid('answer-question-text'), 'Which day?', 'the answer mode');
  await screenshot(page, '03-answering', [tid('answer-mode'), tid('answer-question-text')]);
  const transcriptFetches = [];
  const countFetch = (r) => r.url().includes('/transcript') && transcriptFetches.push(r.url());
  page.on('request', countFetch);
  await page.locator(tid('input')).fill('Friday');
  await page.locator(tid('send')).click();
  // The answer appears as it enters the log (question_answered_evt), not at the next reload.
  await waitText(page, tid('tellask-result'), 'Friday', 'the human\'s answer in the subdialog');
  assert(transcriptFetches.length === 0, `the answer came live, not from a refetch (${transcriptFetches.join(', ')})`);
  page.off('request', countFetch);
  await waitAttr(page, tid('q4h-badge'), 'data-count', '0', 'the Q4H badge after the answer');
  assert(await page.locator(tid('answer-mode')).isHidden(), 'the answer mode ends after the answer');

  // The subdialog finishes; the root resumes and completes.
  await waitText(page, tid('saying'), 'Venue booked for Friday', 'the clerk\'s final saying');
  await waitAttr(page, tid('dialog-status'), 'data-status', 'completed', 'the clerk subdialog status');
  // A completed dialog takes no more messages: the composer says so instead of failing a send.
  await waitText(page, tid('composer-note'), 'completed', 'the composer on a completed dialog');
  assert(await page.locator(tid('input')).isDisabled(), 'the input is disabled on a completed dialog');
  assert(await page.locator(tid('send')).isDisabled(), 'send is disabled on a completed dialog');
  await page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row`).click();
  await page.waitForFunction((id) => document.querySelector('[data-testid="transcript"]')?.getAttribute('data-dialog') !== id, subId);
  await waitText(page, tid('saying'), 'Done.', 'the root\'s final saying');
  await waitText(page, tid('transcript'), 'Venue booked for Friday', 'the root transcript');
  await visible(page, tid('tellask-result'), 'the Tellask result in the root');
  await waitAttr(page, tid('dialog-status'), 'data-status', ROOT_DONE_STATUS, 'the root status');
  await waitAttr(page, `${tid('tree-node')}[data-member="clerk"] .status`, 'data-status', 'completed', 'the clerk in the tree');
  await screenshot(page, '04-completed', [tid('tellask-result'), tid('dialog-status'), `${tid('tree-node')}[data-member="clerk"]`]);
  // Its last answer was given: resume would only repeat it, so it is not offered.
  assert(await page.locator(tid('btn-resume')).isDisabled(), 'resume is disabled on a root whose work is done');

  // Collapsing drops the subtree from the page; expanding fetches it again.
  const childrenFetches = [];
  page.on('request', (r) => r.url().endsWith('/children') && childrenFetches.push(r.url()));
  const rootToggle = page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row ${tid('tree-toggle')}`);
  await rootToggle.click();
  await page.locator(`${tid('tree-node')}[data-member="clerk"]`).waitFor({ state: 'detached' });
  assert(childrenFetches.length === 0, 'collapsing fetches nothing');
  await rootToggle.click();
  await visible(page, `${tid('tree-node')}[data-member="clerk"]`, 'the clerk after expanding again');
  assert(childrenFetches.length === 1, `expanding refetches the children once (${childrenFetches.length})`);
});

test('stop interrupts a streaming reply; resume is offered', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('tell me a long story');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'Once upon', 'the streamed saying');
  await waitAttr(page, tid('dialog-status'), 'data-status', 'generating', 'the status while streaming');
  assert(await page.locator(tid('btn-interrupt')).isEnabled(), 'stop is enabled while generating');
  await page.locator(tid('btn-interrupt')).click();
  await visible(page, tid('interrupted'), 'the interrupted mark');
  await waitAttr(page, tid('dialog-status'), 'data-status', 'idle', 'the status after the stop');
  const said = await textOf(page, tid('saying'));
  assert(said.length > 0 && !said.includes('on and on and on.'), 'the partial saying is kept, not the whole text');
  await page.locator(`${tid('btn-resume')}:not([disabled])`).waitFor();
  await waitAttr(page, tid('btn-resume'), 'data-reason', 'interrupted', 'why resume applies');
  assert(await page.locator(tid('btn-interrupt')).isDisabled(), 'stop is disabled after the stop');
  // Resume goes on with the stopped generation; while it runs, resume no longer applies.
  await page.locator(tid('btn-resume')).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'generating', 'the status after resume');
  assert(await page.locator(tid('btn-resume')).isDisabled(), 'resume is disabled while generating');
  await page.locator(`${tid('btn-interrupt')}:not([disabled])`).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'idle', 'the status after the second stop');
  assert((await page.locator(tid('interrupted')).count()) === 2, 'both stopped generations are marked');
});

for (const [label, viewport] of [['desktop', DESKTOP], ['390×844', PHONE]]) {
  test(`tool arguments and output are shown as they are (${label})`, async ({ server, page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await gotoApp(page, server.url);
    await page.locator(tid('new-content')).fill('read the source');
    await page.locator(tid('new-start')).click();
    await waitText(page, tid('saying'), 'I read the three files.', 'the final saying');
    const outputs = page.locator(tid('tool-output-text'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tool-output-text"]').length === 3);
    const source = readFileSync(join(teamDir, 'src', 'hello.cpp'), 'utf8');
    assert((await outputs.nth(0).textContent()) === source, `read_file's output is the file byte for byte: ${await outputs.nth(0).textContent()}`);
    assert((await page.locator(`${tid('tool-output')} h1, ${tid('tool-output')} strong`).count()) === 0, 'no Markdown inside tool output');
    const look = await outputs.nth(0).evaluate((el) => ({ ws: getComputedStyle(el).whiteSpace, font: getComputedStyle(el).fontFamily }));
    assert(look.ws === 'pre-wrap' && /mono/i.test(look.font), `monospace with whitespace kept (${JSON.stringify(look)})`);
    const json = readFileSync(join(teamDir, 'src', 'settings.json'), 'utf8');
    assert((await outputs.nth(1).textContent()) === JSON.stringify(JSON.parse(json), null, 2), 'JSON output is pretty-printed');

    // The long one starts collapsed; expanding shows all of it; copying copies all of it.
    const long = page.locator(tid('tool-output')).nth(2);
    assert((await long.getAttribute('data-collapsed')) === 'true', 'long output starts collapsed');
    const clipped = await long.locator('pre').evaluate((el) => el.scrollHeight > el.clientHeight + 20);
    assert(clipped, 'collapsed output is clipped');
    await long.locator(tid('tool-output-expand')).click();
    await waitAttr(page, `${tid('tool-output')}[data-collapsed]`, 'data-collapsed', 'false', 'the expanded output');
    const whole = await long.locator('pre').evaluate((el) => el.scrollHeight <= el.clientHeight + 1);
    assert(whole, 'expanded output shows every line');
    await long.locator(tid('tool-output-copy')).click();
    const guests = readFileSync(join(teamDir, 'src', 'guests.txt'), 'utf8');
    await page.waitForFunction((want) => navigator.clipboard.readText().then((got) => got === want), guests);

    // Arguments are pretty-printed JSON too.
    await page.locator(`${tid('tool-call')} summary`).first().click();
    const args = await page.locator(tid('tool-args-text')).first().textContent();
    assert(args === JSON.stringify({ path: 'src/hello.cpp' }, null, 2), `the arguments as pretty JSON: ${args}`);
    await outputs.nth(0).scrollIntoViewIfNeeded();
    await screenshot(page, `08-tool-output-${viewport.width}`, [tid('tool-output-text'), tid('tool-args-text')]);
  }, { viewport });
}

const openDialogIs = (page, id, what) =>
  page
    .waitForFunction((want) => document.querySelector('[data-testid="transcript"]')?.getAttribute('data-dialog') === want, id)
    .catch(() => {
      throw new AssertionError(`${what}: the open dialog never became ${id}`);
    });

for (const [label, viewport] of [['desktop', DESKTOP], ['390×844', PHONE]]) {
  test(`dialogs are titled and linked: #/dialog/ID, back and forward, reload (${label})`, async ({ server, page }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-member')).selectOption('lead');
    await page.locator(tid('new-content')).fill('Plan the launch\nwith a venue and a date');
    await page.locator(tid('new-start')).click();
    const sub = `${tid('tree-node')}[data-member="clerk"]`;
    await visible(page, sub, 'the clerk subdialog in the tree');
    const rootId = await page.locator(tid('transcript')).getAttribute('data-dialog');
    assert((await page.evaluate(() => location.hash)) === `#/dialog/${rootId}`, 'the address names the new dialog');
    // Titled by its first line; the subdialog by its task, not by the tool that made it.
    await waitText(page, `${tid('dialog-item')} .di-title`, 'Plan the launch', 'the dialog list');
    assert((await textOf(page, `${tid('dialog-item')} .di-title`)) === 'Plan the launch', 'the title is the first line');
    await waitText(page, `${sub} ${tid('tree-label')}`, 'Book a venue for the launch.', 'the subdialog\'s label');
    assert(!(await textOf(page, `${sub} ${tid('tree-label')}`)).includes('tellaskSessionless'), 'no tool name in the label');
    const subId = await page.locator(sub).getAttribute('data-id');
    await page.locator(`${sub} > .tree-row`).click();
    await openDialogIs(page, subId, 'the clerk after a click in the tree');
    assert((await page.evaluate(() => location.hash)) === `#/dialog/${subId}`, 'the address follows the open dialog');

    await page.goBack();
    await openDialogIs(page, rootId, 'back');
    await page.goForward();
    await openDialogIs(page, subId, 'forward');
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
    await openDialogIs(page, subId, 'after a reload');
    await waitText(page, tid('dialog-title'), '@clerk', 'the title after a reload');
    await screenshot(page, `09-linked-${viewport.width}`, [tid('dialog-title'), tid('tree-label')]);

    // An address that names no dialog says so where the dialog would be.
    await page.evaluate(() => (location.hash = '#/dialog/no-such-dialog'));
    await visible(page, tid('missing-dialog'), 'the missing dialog notice');
    await waitText(page, tid('missing-dialog'), 'no-such-dialog', 'the missing dialog notice');
  }, { viewport, consoleAllows: [/status of 404/] });
}

test('a phone (390×844): one pane at a time, nothing squeezed, every panel reachable', async ({ server, page }) => {
  await gotoApp(page, server.url);
  const view = page.viewportSize();
  const noSideways = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert(await noSideways(), 'the page does not scroll sideways');
  await visible(page, tid('pane-tabs'), 'the pane tabs');
  const bar = await page.locator('.topbar').boundingBox();
  assert(bar.height < 56, `the top bar is one line (${bar.height} px)`);
  await visible(page, tid('new-content'), 'the new dialog form in the first pane');
  const form = await page.locator(tid('new-dialog')).boundingBox();
  assert(form.width > view.width * 0.8, `the form has the width of the screen (${form.width})`);
  await page.locator(tid('new-member')).selectOption('lead');
  await page.locator(tid('new-content')).fill('Plan the launch');
  await page.locator(tid('new-start')).click();

  // The conversation takes the screen: a title with room, buttons on one line each.
  await visible(page, tid('transcript'), 'the transcript');
  assert(await page.locator(tid('new-content')).isHidden(), 'the dialog list pane is put away');
  const title = await page.locator(tid('dialog-title')).boundingBox();
  assert(title && title.width > 100, `the title has room (${title?.width})`);
  for (const id of ['btn-interrupt', 'btn-resume', 'view-records', 'view-transcript']) {
    const box = await page.locator(tid(id)).boundingBox();
    assert(box && box.height < 40 && box.x + box.width <= view.width, `${id} is one line inside the screen (${JSON.stringify(box)})`);
  }
  const composer = await page.locator(tid('composer')).boundingBox();
  assert(composer && composer.y + composer.height <= view.height + 1, 'the composer is on screen');
  await visible(page, `${tid('tree-node')}[data-member="clerk"]`, 'the tree');

  // The question reaches the panels pane; following it leads back to the conversation.
  await waitAttr(page, tid('pane-q4h-count'), 'class', 'badge small', 'the question count on the panels tab');
  await page.locator(tid('pane-right')).click();
  await visible(page, tid('q4h-item'), 'the question in the panels pane');
  const panel = await page.locator(tid('q4h-panel')).boundingBox();
  assert(panel.width > view.width * 0.8 && panel.height > 64, `the Q4H panel is not squeezed (${JSON.stringify(panel)})`);
  await visible(page, tid('reminders-panel'), 'the reminders panel');
  await screenshot(page, '10-phone-panels', [tid('q4h-item'), tid('pane-tabs')]);
  await page.locator(tid('q4h-link')).first().click();
  await visible(page, tid('answer-mode'), 'the answer mode');
  await page.locator(tid('input')).fill('Friday');
  await page.locator(tid('send')).click();
  await waitText(page, tid('saying'), 'Venue booked for Friday', 'the clerk\'s reply');
  assert(await noSideways(), 'still no sideways scrolling');
  await screenshot(page, '11-phone-conversation', [tid('dialog-title'), tid('composer'), tid('pane-tabs')]);

  // A long conversation scrolls inside its pane.
  await page.locator(tid('pane-left')).click();
  await page.locator(tid('new-content')).fill('read the source');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'I read the three files.', 'the last saying');
  const scrolls = await page.locator(tid('transcript-scroll')).evaluate((el) => {
    el.scrollTop = 0;
    const top = el.scrollTop;
    el.scrollTop = el.scrollHeight;
    return el.scrollHeight > el.clientHeight && el.scrollTop > top;
  });
  assert(scrolls, 'the transcript scrolls');
}, { viewport: PHONE });

test('the demo team shows the hierarchy on the first run: tree, question, reminder, Taskdoc', async ({ server, page }) => {
  await gotoApp(page, server.url);
  // The Team panel names what answers: the scripted model, not the live model the file asks for.
  await waitText(page, tid('members'), '@researcher', 'the team panel');
  const models = await page.locator(tid('member-model')).allTextContents();
  assert(models.every((m) => m.includes('scripted') && !m.includes('gpt')), `the team panel claims no live model: ${models.join(' | ')}`);
  await page.locator(tid('new-content')).fill('Plan the next sprint');
  await page.locator(tid('new-taskdoc')).fill('tasks/sprint.tsk');
  await page.locator(tid('new-start')).click();
  await visible(page, `${tid('tree-node')}[data-member="researcher"]`, 'the researcher subdialog in the tree');
  await waitText(page, `${tid('tree-node')}[data-member="researcher"] ${tid('tree-label')}`, 'milestone 1', 'its task as its label');
  await waitAttr(page, tid('q4h-badge'), 'data-count', '1', 'the researcher\'s question');
  await waitText(page, tid('reminder'), 'Report the sprint hours', 'the lead\'s reminder');
  await waitText(page, tid('taskdoc-goals'), 'Find milestone 1', 'the Taskdoc goals');
  await screenshot(page, '12-demo-first-run', [`${tid('tree-node')}[data-member="researcher"]`, tid('q4h-item'), tid('reminder'), tid('taskdoc-goals')]);
  await page.locator(tid('q4h-link')).first().click();
  await page.locator(tid('input')).fill('the CLI');
  await page.locator(tid('send')).click();
  await page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row`).click();
  await waitText(page, tid('saying'), '864 hours', 'the lead\'s answer');
}, { team: 'examples/demo' });

test('theme and language toggles change the page and are remembered', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await waitAttr(page, 'html', 'data-theme', 'light', 'the initial theme');
  const bgLight = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.locator(tid('theme-toggle')).click();
  await waitAttr(page, 'html', 'data-theme', 'dark', 'the theme after the toggle');
  const bgDark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert(bgLight !== bgDark, `the dark theme changes the background (${bgLight} → ${bgDark})`);

  assert((await textOf(page, tid('tab-running'))) === 'Running', 'English tab label');
  await page.locator(tid('lang-toggle')).click();
  await waitAttr(page, 'html', 'lang', 'zh-CN', 'the language after the toggle');
  await waitText(page, tid('tab-running'), '进行中', 'the running tab');
  await waitText(page, tid('new-start'), '开始', 'the start button');
  await waitText(page, tid('offline-banner'), '离线模式', 'the offline banner');
  assert((await page.locator(tid('new-content')).getAttribute('placeholder')) === '要团队做什么？', 'placeholders follow the language');
  await screenshot(page, '05-dark-zh', [tid('tab-running'), tid('new-start'), tid('offline-banner')]);

  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  await waitAttr(page, 'html', 'data-theme', 'dark', 'the theme after a reload');
  await waitText(page, tid('tab-running'), '进行中', 'the language after a reload');
  await page.locator(tid('lang-toggle')).click();
  await waitText(page, tid('tab-running'), 'Running', 'the running tab back in English');
  await page.locator(tid('theme-toggle')).click();
  await waitAttr(page, 'html', 'data-theme', 'light', 'the theme toggled back');
});

test('markdown is rendered and sanitised; Taskdoc and reminders panels; search', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('show me markdown');
  await page.locator(tid('new-taskdoc')).fill('tasks/launch.tsk');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('taskdoc-goals'), 'Launch on Friday.', 'the Taskdoc panel');
  await waitText(page, tid('taskdoc-path'), 'launch.tsk', 'the Taskdoc path');
  await waitText(page, tid('reminder'), "Check the venue's wifi.", 'the reminders panel');
  await waitText(page, tid('saying'), 'Some bold', 'the saying');
  await page.locator(`${tid('saying')} strong`).first().waitFor();
  // The saying is still streaming until the dialog is done; only then is the whole list there.
  await waitAttr(page, tid('dialog-status'), 'data-status', ROOT_DONE_STATUS, 'the dialog status');
  await page.locator(`${tid('saying')} li`).nth(1).waitFor();
  assert((await page.locator(`${tid('saying')} li`).count()) === 2, 'the list is rendered');
  const unsafe = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    scripts: document.querySelectorAll('[data-testid="saying"] script').length,
    handlers: document.querySelectorAll('[data-testid="saying"] [onerror]').length,
    jsLinks: [...document.querySelectorAll('[data-testid="saying"] a')].filter((a) => /^javascript:/i.test(a.getAttribute('href') ?? '')).length,
  }));
  assert(unsafe.pwned === null, `no script of the model ran (window.__pwned = ${unsafe.pwned})`);
  assert(unsafe.scripts === 0 && unsafe.handlers === 0 && unsafe.jsLinks === 0, `no unsafe markup survives: ${JSON.stringify(unsafe)}`);
  // The search of the dialog list finds it.
  await page.locator(tid('dialog-search')).fill('markdown');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="dialog-item"]').length === 1);
  await page.locator(tid('dialog-search')).fill('no such dialog at all');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="dialog-item"]').length === 0);
  await screenshot(page, '07-markdown-panels', [tid('taskdoc-goals'), tid('reminder'), `${tid('saying')} li`]);
});

test('a wrong token shows an auth error; the right one works', async ({ page, server }) => {
  const url = new URL(server.url);
  assert(url.hash.startsWith('#token='), `the server prints its URL with #token= (${server.url})`);
  await page.goto(`${url.origin}/#token=wrong-token`);
  await visible(page, tid('auth-error'), 'the auth error banner');
  await screenshot(page, '06-auth-error', [tid('auth-error')]);
  assert(!(await page.evaluate(() => location.hash)).includes('token'), 'the token is taken out of the address bar');

  const ok = await page.context().newPage();
  await gotoApp(ok, server.url);
  await waitAttr(ok, tid('ws-status'), 'data-state', 'open', 'the WebSocket with the right token');
  assert(await ok.locator(tid('auth-error')).isHidden(), 'no auth error with the right token');
  await waitText(ok, tid('members'), '@lead', 'the team panel with the right token');
  await ok.close();
}, { token: 'e2e-secret-token', consoleAllows: [/status of 401/] });

test('the WebSocket reconnects after a server restart and the dialog goes on live', async ({ server, page, swap }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('hello there');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'Tell me about the launch.', 'the first reply');
  await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket');

  // Same port, same data, a new process (a new epoch): the page reconnects and resubscribes.
  const port = new URL(server.url).port;
  server.keepData = true;
  await server.stop();
  await waitAttr(page, tid('ws-status'), 'data-state', 'closed', 'the WebSocket after the server stopped');
  // Said plainly; a send while it is down is refused with a sentence and the text is kept.
  await visible(page, tid('conn-banner'), 'the reconnecting banner');
  await page.locator(tid('input')).fill('sent while down');
  await page.locator(tid('send')).click();
  await waitText(page, tid('error-banner'), 'cannot be reached', 'the refused send');
  assert(!(await textOf(page, tid('error-banner'))).includes('Failed to fetch'), 'no "Failed to fetch"');
  assert((await page.locator(tid('input')).inputValue()) === 'sent while down', 'the text stays in the box');
  const again = await swap(await startServer({ port, data: server.data }));
  assert(new URL(again.url).port === port, `the new server took the same port (${again.url})`);
  await page.locator(tid('ws-status') + '[data-state="open"]').waitFor({ timeout: 30000 });
  assert(await page.locator(tid('conn-banner')).isHidden(), 'the banner goes once the connection is back');
  await page.locator(tid('input')).fill('tell me a long story');
  await page.locator(tid('send')).click();
  await waitText(page, tid('saying'), 'Once upon', 'the reply streamed after the reconnect');
  assert((await page.locator(tid('msg-user')).count()) === 2, 'both user messages are shown once');
  await page.locator(tid('btn-interrupt')).click();
  await visible(page, tid('interrupted'), 'the interrupted mark');
}, { consoleAllows: [/WebSocket connection to .* failed/, /ERR_CONNECTION_REFUSED/] });

test(
  'records: sessions and turns on a timeline, an unresponded turn marked, search leads to its turn',
  async ({ server, page }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-member')).selectOption('lead');
    await page.locator(tid('new-content')).fill('Plan the launch');
    await page.locator(tid('new-start')).click();
    // The lead waits for the clerk, who waits for the human: the root's turn outlives its 2 s window.
    await visible(page, tid('q4h-item'), 'the clerk\'s question');
    await page.locator(tid('view-records')).click();
    await visible(page, tid('records'), 'the records view');
    assert(await page.locator(tid('composer')).isHidden(), 'the composer is hidden in the records view');
    const unresponded = `${tid('record-turn')}[data-status="unresponded"]`;
    for (let i = 0; i < 40 && (await page.locator(unresponded).count()) === 0; i++) {
      await page.waitForTimeout(250);
      await page.locator(tid('records-refresh')).click();
    }
    await visible(page, unresponded, 'the unresponded turn');
    await visible(page, `${unresponded} ${tid('unresponded-mark')}`, 'the unresponded mark');
    // How many turns the window closed depends on how fast the model streamed; the count must agree.
    const marked = await page.locator(unresponded).count();
    await waitAttr(page, tid('unresponded-count'), 'data-count', String(marked), 'the unresponded count');
    const sessions = await page.locator(tid('record-session')).count();
    assert(sessions === 1, `one session (got ${sessions})`);
    assert((await page.locator(tid('record-session')).first().getAttribute('data-session-type')) === 'dialogue', 'a dialogue session');

    // A turn shows its messages when opened: the first holds the human's request, and the lead's
    // words are in one of them.
    const first = page.locator(tid('record-turn')).first();
    assert((await first.getAttribute('data-status')) === 'unresponded', 'the human\'s turn went unanswered');
    assert(await page.locator(`${tid('record-turn')} ${tid('record-message')}`).first().isHidden(), 'messages start folded');
    for (const line of await page.locator(`${tid('record-turn')} .rec-turn-line`).all()) await line.click();
    await waitText(page, `${tid('record-turn')} ${tid('record-message')}[data-role="human"]`, 'Plan the launch', 'the human message');
    await waitText(page, `${tid('record-turn')} ${tid('record-message')}[data-role="ai"]`, 'clerk', 'the lead\'s words');
    // Labels are words, not internal names; the lead's Tellask shows its tool and arguments.
    const recordsText = await textOf(page, tid('records'));
    for (const internal of ['human_query', 'human → ai', 'tool_input', 'tool_output']) {
      assert(!recordsText.includes(internal), `the records view shows '${internal}'`);
    }
    await waitText(page, tid('record-tool-call'), 'tellaskSessionless', 'the Tellask call in the records');
    await waitText(page, tid('record-tool-args-text'), 'Book a venue for the launch.', 'its arguments');
    assert((await page.locator(`${tid('record-message')} strong`).count()) > 0, 'Markdown renders in the records');
    await screenshot(page, '07-records', [tid('records'), unresponded, tid('records-bar'), tid('record-tool-call')]);

    // The Chinese mode translates labels, the placeholder and the dates.
    const enTime = await textOf(page, `${tid('record-turn')} .rec-time`);
    await page.locator(tid('lang-toggle')).click();
    await waitText(page, tid('record-who'), '人类', 'the roles in Chinese');
    await page.waitForFunction(() => /^\d{4}\/\d{1,2}\/\d{1,2}/.test(document.querySelector('[data-testid="record-turn"] .rec-time')?.textContent ?? ''));
    assert((await page.locator(tid('records-search')).getAttribute('placeholder')) === '搜索本对话…', 'the search placeholder in Chinese');
    assert(/AM|PM/.test(enTime), `dates were English before (${enTime})`);
    await screenshot(page, '07-records-zh', [tid('records'), tid('record-who')]);
    await page.locator(tid('lang-toggle')).click();
    await waitText(page, tid('record-who'), 'Human', 'the roles in English again');
    for (const line of await page.locator(`${tid('record-turn')} .rec-turn-line`).all()) await line.click();

    // Search finds the message and leads to its turn.
    await page.locator(tid('records-search')).fill('launch');
    await page.locator(tid('records-search-go')).click();
    await visible(page, tid('search-result'), 'a search result');
    await page.locator(tid('search-result')).first().click();
    await visible(page, `${tid('record-turn')}.highlight.open`, 'the found turn, highlighted and open');
    // Search syntax is refused with the server's message; a word nobody wrote finds nothing.
    await page.locator(tid('records-search')).fill('foo AND bar');
    await page.locator(tid('records-search-go')).click();
    await waitText(page, tid('records-search-error'), 'q:', 'the refused search');
    await page.locator(tid('records-search')).fill('zebracrossing');
    await page.locator(tid('records-search-go')).click();
    await visible(page, tid('no-matches'), 'the no-matches line');
    assert((await page.locator(tid('records-search-error')).isHidden()), 'the old error is gone');

    // Back to the transcript.
    await page.locator(tid('view-transcript')).click();
    await visible(page, tid('transcript'), 'the transcript');
    assert(await page.locator(tid('records-scroll')).isHidden(), 'the records are hidden again');
  },
  // The refused search syntax is a 400 on purpose (its message is what the test reads).
  { args: ['--turn-window', '2'], consoleAllows: [/status of 400 \(Bad Request\) \(\S+\/api\/messages\/search\?q=foo%20AND%20bar/] },
);

test('the page carries its own secret: the UI works without #token', async ({ server, page }) => {
  const url = new URL(server.url);
  assert(url.hash.startsWith('#token='), `on loopback the server still prints its secret (${server.url})`);
  const html = await (await fetch(`${url.origin}/`)).text();
  assert(html.includes(`<meta name="parley-token" content="${url.hash.slice(7)}">`), 'index.html carries the secret');
  await gotoApp(page, `${url.origin}/`); // no #token: the page's own meta tag is all it has
  await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket with the page\'s secret');
  await waitText(page, tid('members'), '@lead', 'the team panel');
  assert(await page.locator(tid('auth-error')).isHidden(), 'no auth error');
  await page.locator(tid('new-content')).fill('hello there');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'Tell me about the launch.', 'the reply');
});

/** Serves `html` at / on a free port of 127.0.0.1: a page of another origin than the server's. */
async function startOtherSite(html) {
  const site = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html);
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  return {
    port: site.address().port,
    close() {
      const closed = new Promise((r) => site.close(r));
      site.closeAllConnections(); // the browser's keep-alive and preconnected sockets
      return closed;
    },
  };
}

// What a page of another site tries against the server at `target` (http://127.0.0.1:PORT): create
// a dialog with a no-cors text/plain fetch and with a text/plain form (JSON smuggled in a field
// name), read the dialog list and the UI's page (for its secret), subscribe over the WebSocket, and
// frame the UI. Each attempt records what the page could see in window.__attack.
const ATTACK_PAGE = (target) => `<!doctype html><html><head><title>elsewhere</title></head><body>
<iframe name="sink" id="sink"></iframe>
<form id="csrf" method="POST" action="${target}/api/dialogs" enctype="text/plain" target="sink">
  <input name='{"content":"pwned by a form","x":"' value='"}'>
</form>
<iframe id="framed" src="${target}/"></iframe>
<script>
const results = { done: false };
window.__attack = results;
async function attempt(name, fn) {
  try { results[name] = await fn(); } catch (e) { results[name] = 'blocked: ' + e.name; }
}
(async () => {
  await attempt('noCorsPost', async () => {
    const r = await fetch('${target}/api/dialogs', { method: 'POST', mode: 'no-cors',
      headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ content: 'pwned by fetch' }) });
    return 'sent (' + r.type + ')';
  });
  await attempt('formPost', () => new Promise((resolve) => {
    document.getElementById('sink').addEventListener('load', () => resolve('submitted'), { once: true });
    document.getElementById('csrf').submit();
    setTimeout(() => resolve('no load event'), 5000);
  }));
  await attempt('readDialogs', async () => {
    const r = await fetch('${target}/api/dialogs');
    return 'read ' + r.status + ': ' + (await r.text());
  });
  await attempt('readPage', async () => {
    const r = await fetch('${target}/');
    return 'read ' + r.status + ': ' + (await r.text());
  });
  await attempt('websocket', () => new Promise((resolve) => {
    const ws = new WebSocket('${target.replace('http:', 'ws:')}/ws', ['parley.v1']);
    ws.onopen = () => resolve('opened');
    ws.onmessage = (ev) => resolve('message: ' + ev.data);
    ws.onclose = (ev) => resolve('closed ' + ev.code);
  }));
  results.done = true;
})();
</script></body></html>`;

/** Runs ATTACK_PAGE from `origin` and returns what it saw. */
async function attackFrom(page, origin, target) {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.__attack?.done === true, null, { timeout: 30000 });
  return page.evaluate(() => window.__attack);
}

/** The server's dialogs, asked with the real token. */
async function dialogsOf(server) {
  const url = new URL(server.url);
  const res = await fetch(`${url.origin}/api/dialogs`, { headers: { Authorization: `Bearer ${url.hash.slice(7)}` } });
  assert(res.status === 200, `GET /api/dialogs with the token: ${res.status}`);
  return res.json();
}

test('a page of another origin cannot create, read or subscribe', async ({ server, page }) => {
  const target = new URL(server.url).origin;
  const other = await startOtherSite(ATTACK_PAGE(target));
  try {
    // From another site (localhost is not 127.0.0.1's site) and from the same host on another port.
    for (const origin of [`http://localhost:${other.port}`, `http://127.0.0.1:${other.port}`]) {
      const seen = await attackFrom(page, origin, target);
      const what = `${origin}: ${JSON.stringify(seen)}`;
      const listed = await dialogsOf(server);
      assert(listed.total === 0, `no dialog was created (${what}): ${JSON.stringify(listed)}`);
      assert(seen.noCorsPost === 'sent (opaque)', `the no-cors POST went out and its answer stayed hidden (${what})`);
      assert(seen.formPost === 'submitted', `the form was posted (${what})`);
      assert(seen.readDialogs.startsWith('blocked'), `the dialog list cannot be read (${what})`);
      assert(seen.readPage.startsWith('blocked'), `the UI's page (and its secret) cannot be read (${what})`);
      assert(seen.websocket === 'closed 1006', `the WebSocket is refused before it opens (${what})`);
      // The page loads (and so waits for) its frames before it runs; the UI's frame-ancestors
      // 'none' leaves an error page where the UI would be.
      const framed = await (await page.$('#framed')).contentFrame();
      assert(!framed.url().startsWith(target), `the UI is not shown in another site's frame (${framed.url()})`);
    }
  } finally {
    await other.close();
  }
}, { consoleAllows: [/./] }); // the console here is the attacking page's: its refusals are the point

test(
  'a DNS-rebound name gets neither the page nor the API',
  async ({ server, page }) => {
    // Chromium resolves rebound.test to 127.0.0.1, as an attacker's DNS would after the page loaded:
    // the page's origin is then http://rebound.test:PORT and our server is "same-origin" to it.
    const port = new URL(server.url).port;
    const token = new URL(server.url).hash.slice(7);
    const response = await page.goto(`http://rebound.test:${port}/`);
    assert(response.status() === 403, `the page under a foreign name is refused (${response.status()})`);
    const shown = await response.text();
    assert(shown.includes('bad_host') && !shown.includes(token), `the refusal names the Host and not the secret: ${shown}`);
    const seen = await page.evaluate(async () => {
      const post = await fetch('/api/dialogs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'pwned by rebinding' }),
      });
      const read = await fetch('/api/dialogs');
      const opened = await new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/ws`, ['parley.v1']);
        ws.onopen = () => resolve('opened');
        ws.onclose = (ev) => resolve('closed ' + ev.code);
      });
      return { post: post.status, postBody: await post.text(), read: read.status, readBody: await read.text(), opened };
    });
    const what = JSON.stringify(seen);
    assert(seen.post === 403 && seen.postBody.includes('bad_host'), `the POST is refused by its Host (${what})`);
    assert(seen.read === 403 && !seen.readBody.includes('"dialogs"'), `the list cannot be read (${what})`);
    assert(seen.opened === 'closed 1006', `the WebSocket is refused (${what})`);
    const listed = await dialogsOf(server);
    assert(listed.total === 0, `no dialog was created: ${JSON.stringify(listed)}`);
  },
  // The console is the rebound page's: the refused page, requests and WebSocket are the point.
  { browserArgs: ['--host-resolver-rules=MAP rebound.test 127.0.0.1'], consoleAllows: [/./] },
);

test('a root is marked done, archived and reopened; stop all and resume all with their counts', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('hello there');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'Tell me about the launch.', 'the answer');
  await waitAttr(page, tid('dialog-status'), 'data-status', 'idle', 'the idle root');
  assert(await page.locator(tid('btn-reopen')).isHidden(), 'reopen is not offered on a running root');
  await page.locator(tid('btn-complete')).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'completed', 'the root marked done');
  await waitText(page, tid('composer-note'), 'completed', 'the composer on a completed root');
  assert(await page.locator(tid('btn-complete')).isHidden(), 'mark done is gone once done');
  await page.locator(tid('tab-completed')).click();
  await waitText(page, tid('dialog-list'), 'hello there', 'the root under the completed tab');
  await page.locator(tid('btn-archive')).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'archived', 'the archived root');
  await page.locator(tid('btn-reopen')).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'idle', 'the reopened root');
  assert(await page.locator(tid('input')).isEnabled(), 'the reopened root takes messages');

  // Run control: a long story streams; stop all stops it, resume all takes it up again.
  await page.locator(tid('tab-running')).click();
  await page.locator(tid('new-content')).fill('tell me a long story');
  await page.locator(tid('new-start')).click();
  await waitText(page, tid('saying'), 'Once upon', 'the streamed saying');
  await waitText(page, tid('running-count'), '1', 'one dialog running');
  await page.locator(`${tid('btn-stop-all')}:not([disabled])`).click();
  await visible(page, tid('interrupted'), 'the interrupted mark');
  await waitText(page, tid('resumable-count'), '1', 'one dialog to resume');
  await waitText(page, tid('running-count'), '0', 'nothing running');
  await page.locator(`${tid('btn-resume-all')}:not([disabled])`).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'generating', 'the dialog resumed');
  await page.locator(`${tid('btn-stop-all')}:not([disabled])`).click();
  await waitAttr(page, tid('dialog-status'), 'data-status', 'idle', 'stopped again');
});

// The root of a finished hierarchy: its status stays "running" (roots are not completed by the
// engine), waiting for nothing, which the UI shows as idle.
const ROOT_DONE_STATUS = 'idle';

const helpers = { test, tid, gotoApp, visible, waitText, waitAttr, screenshot, assert, viewports: [['desktop', DESKTOP], ['390×844', PHONE]] };
registerMediaTests(helpers);
registerTotTests(helpers);
registerFlowTests(helpers);

// ---- the runner ----

let passed = 0;
let failed = 0;
if (problem) {
  console.error(`e2e: ${problem}`);
  failed++;
} else {
  mkdirSync(opts.out, { recursive: true });
  for (const f of readdirSync(opts.out)) if (/^FAIL-|\.png$/.test(f)) rmSync(join(opts.out, f), { force: true });
}
for (const t of problem ? [] : tests) {
  if (opts.only && !t.name.includes(opts.only)) continue;
  let server;
  let browser;
  const started = Date.now();
  try {
    server = await startServer({ ...t.extra, team: t.extra.team ? join(opts.source, t.extra.team) : teamDir });
    browser = await openBrowser(t.extra.browserArgs, t.extra.viewport);
    // `swap` hands the runner a replacement server to stop at the end.
    const swap = (next) => ((server = next), next);
    await t.fn({ server, page: browser.page, context: browser.context, swap });
    assert(browser.errors.length === 0, `the page threw: ${browser.errors.join(' | ')}`);
    // A test that provokes errors on purpose (a wrong token, a server that is down, another site's
    // page) names what it expects; anything else in the console fails it.
    const unexpected = browser.consoleErrors.filter((e) => !(t.extra.consoleAllows ?? []).some((re) => re.test(e)));
    assert(unexpected.length === 0, `the console has errors: ${unexpected.join(' | ')}`);
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name} (${Date.now() - started} ms)\n     ${String(e.stack ?? e).split('\n').slice(0, 4).join('\n     ')}`);
    const safe = t.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
    writeFileSync(join(opts.out, `FAIL-${safe}.log`), `${String(e.stack ?? e)}\n${server?.log ?? ''}\n${browser?.errors.join('\n') ?? ''}\n`);
    if (browser) {
      await browser.page.screenshot({ path: join(opts.out, `FAIL-${safe}.png`) }).catch(() => {});
      if (browser.errors.length) console.log(`     page errors: ${browser.errors.join(' | ')}`);
    }
    if (server) console.log(server.log.split('\n').slice(-30).join('\n'));
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
  }
}
if (shots.length) console.log(`screenshots: ${opts.out}`);
// Only a run without failures records a baseline (a failed test's boxes are not a layout to keep).
if (failed === 0) layout.save();
console.log(`${passed} passed, ${failed} failed`);
// Set, not exited with: the run ends once the servers and browsers it stopped are gone.
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
