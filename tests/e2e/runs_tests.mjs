// Browser tests of issue 41's web UI (web/README.md, docs/eval.md "The runs page"): the runs page
// lists the runs `parley eval` recorded (two runs of examples/eval/demo_suite.yaml, made before the
// server starts on the same data directory), with each suite's pass rate over time; a run shows its
// cases, checks and judge's reasons, each case beside the earlier run (better, worse, same) with its
// trees side by side; "Fork from here" on a transcript's message makes a new root and opens it, a
// refused point is said beside its message until dismissed, and a fork is compared with its origin;
// "Replay…" in a root's header replays its tree with recorded tools and opens the fork, whose
// transcript ends with the replayed answer, and a body the server refuses is said in the form.
// axe-core finds no serious or critical violation on the new pages. Fixtures: fixtures.mjs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PHONE, test as base, expect, gotoApp, tid } from './fixtures.mjs';
import { parleyBinary, sourceDir } from './environment.mjs';

const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function expectAccessible(page, label) {
  await page.addScriptTag({ path: axeScript });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations);
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(bad, `${label}: axe-core's serious and critical violations`).toEqual([]);
}

/** `parley eval` of the demo suite into DATA/store (offline: the scripted model); the run's id. */
function evalDemoSuite(data, ...args) {
  const env = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[key];
  const suite = join(sourceDir(), 'examples', 'eval', 'demo_suite.yaml');
  const run = spawnSync(parleyBinary(), ['eval', suite, '--data', join(data, 'store'), ...args], { encoding: 'utf8', env, timeout: 60000 });
  expect(run.status, `parley eval: ${run.stdout}\n${run.stderr}`).toBe(0);
  return /run (run-[0-9a-f-]+):/.exec(run.stdout)[1];
}

// Each test's server serves a data directory with two runs of the demo suite (the second compared
// with the first), made before it starts, and the demo team.
const test = base.extend({
  runs: async ({ startServer }, use) => {
    const data = mkdtempSync(join(tmpdir(), 'parley-e2e-runs-'));
    cpSync(join(sourceDir(), 'examples', 'demo'), join(data, 'team'), { recursive: true });
    const first = evalDemoSuite(data);
    const second = evalDemoSuite(data, '--compare', first);
    await use({ server: await startServer({ data }), first, second });
  },
  server: async ({ runs }, use) => {
    await use(runs.server);
  },
});

// The refused fork's and replay's 400s are the requests the browser logs as failed (on purpose).
test.use({ bypassCSP: true, consoleAllows: /status of 400 \(Bad Request\) \(http:\/\/[^ ]*\/api\/dialogs\/[0-9a-f]+\/(fork|replay)\)/ });

test('the runs page lists the runs with each suite\'s pass rate over time; a run shows its cases beside the earlier run and their trees side by side', async ({ runs, page }) => {
  const { server, first, second } = runs;
  await gotoApp(page, server.url);
  await page.locator(tid('nav-runs')).click();
  await expect(page.locator(tid('run-row'))).toHaveCount(2);
  // Newest first; the suite's trend has one bar per run, both at 100%.
  await expect(page.locator(tid('run-row')).first()).toHaveAttribute('data-run', second);
  await expect(page.locator(`${tid('suite-trend')} rect`)).toHaveCount(2);
  await expect(page.locator(`${tid('suite-trend')} svg`)).toHaveAttribute('aria-label', /100%, 100%/);
  await expect(page.locator('main.layout')).toBeHidden();
  await expectAccessible(page, 'the runs page');

  await page.locator(`${tid('run-row')}[data-run="${second}"] ${tid('run-link')}`).click();
  await expect(page).toHaveURL(new RegExp(`#/runs/${second}$`));
  await expect(page.locator(tid('run-compared'))).toContainText(first);
  const notes = page.locator(`${tid('run-case')}[data-case="notes"]`);
  await expect(notes.locator(tid('case-outcome'))).toHaveText('pass');
  await expect(notes.locator(tid('case-change'))).toHaveText('same');
  await expect(notes.locator(`${tid('check')}[data-outcome="pass"]`)).toHaveCount(7);
  await expect(notes.locator(tid('judge-reasons'))).toContainText('hours');
  await expect(page.locator(`${tid('run-case')}[data-case="hierarchy"] ${tid('case-change')}`)).toHaveText('same');
  await expectAccessible(page, 'a run');

  // The case's tree beside the earlier run's: the scripted model did the same steps both times.
  await notes.locator(tid('case-diff')).click();
  await expect(page.locator(tid('diff-summary'))).toContainText('the same steps and gave the same answer');
  await expect(page.locator(`${tid('diff-dialog')}[data-path="@lead"] ${tid('diff-step')}`).first()).toHaveAttribute('data-same', 'true');
  await expect(page.locator(`${tid('diff-member')}[data-member="lead"]`)).toBeVisible();
  await expectAccessible(page, 'the side-by-side view');

  // Back to the dialogs: the panes return.
  await page.locator(tid('page-dialogs')).click();
  await expect(page.locator('main.layout')).toBeVisible();
  await expect(page.locator(tid('page-view'))).toBeHidden();

  // On a phone the runs link is in the top bar and the page does not scroll sideways.
  await page.setViewportSize(PHONE);
  await page.locator(tid('nav-runs')).click();
  await expect(page.locator(tid('run-row'))).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll').toBeTruthy();
  await expectAccessible(page, 'the runs page on a phone');
});

test('"Fork from here" opens the new root; a refused point is said beside its message until dismissed; the fork beside its origin', async ({ runs, page }) => {
  const { server, second } = runs;
  await gotoApp(page, `${server.url.split('#')[0]}#/runs/${second}`);
  await page.locator(`${tid('run-case')}[data-case="notes"] ${tid('attempt-tree')}`).click();
  const transcript = page.locator(tid('transcript'));
  await expect(transcript.locator(tid('tool-call')).first()).toBeVisible();
  const origin = await transcript.getAttribute('data-dialog');

  // The assistant turn that called read_file: its call has no result yet at that event.
  const refused = page.locator(`${tid('msg-assistant')}:has(+ ${tid('tool-call')}[data-name="read_file"])`);
  await refused.locator(tid('fork-here')).click();
  await expect(refused.locator(tid('fork-error')), 'the server\'s refusal beside the message').toContainText('unfinished step');
  await expect(refused.locator(tid('fork-error'))).toContainText('nearest valid point');
  await expect(transcript, 'nothing was opened').toHaveAttribute('data-dialog', origin);
  await refused.locator(tid('error-dismiss-here')).click();
  await expect(refused.locator(tid('fork-error'))).toBeHidden();

  // The first message, by keyboard: the fork opens with where it came from.
  const first = transcript.locator(`${tid('msg-user')} ${tid('fork-here')}`).first();
  await expect(first).toHaveAttribute('aria-label', /Fork from here, after event \d+/);
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(transcript).not.toHaveAttribute('data-dialog', origin);
  await expect(page.locator(tid('fork-origin'))).toContainText(origin);

  await page.locator(tid('fork-compare')).click();
  await expect(page.locator(tid('diff-summary'))).toContainText('They first part at @lead');
  await expect(page.locator(`${tid('diff-step')}[data-parting="true"]`)).toHaveCount(1);
  await expect(page.locator(`${tid('answer-line')}[data-op="-"]`).first()).toBeVisible();
  await expectAccessible(page, 'a fork beside its origin');
});

test('"Replay…" replays the root with recorded tools and opens the fork; a refused body is said in the form until dismissed', async ({ runs, page }) => {
  const { server, second } = runs;
  await gotoApp(page, `${server.url.split('#')[0]}#/runs/${second}`);
  await page.locator(`${tid('run-case')}[data-case="notes"] ${tid('attempt-tree')}`).click();
  const transcript = page.locator(tid('transcript'));
  await expect(transcript.locator(tid('tool-call')).first()).toBeVisible();
  const origin = await transcript.getAttribute('data-dialog');
  const answer = (await transcript.locator(tid('msg-assistant')).last().innerText()).trim();

  // By keyboard: the action opens its form with the model field focused.
  const action = page.locator(tid('btn-replay'));
  await expect(action).toHaveAttribute('aria-label', 'Replay…');
  await action.focus();
  await page.keyboard.press('Enter');
  await expect(action).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator(tid('replay-model'))).toBeFocused();
  await expectAccessible(page, 'the replay form');

  // A provider the team lacks: the server's refusal in the form, nothing opened.
  await page.locator(tid('replay-provider')).fill('nowhere');
  await page.locator(tid('replay-submit')).click();
  await expect(page.locator(tid('replay-error'))).toContainText('nowhere');
  await expect(transcript).toHaveAttribute('data-dialog', origin);
  await page.locator(`${tid('replay-error')} ${tid('error-dismiss-here')}`).click();
  await expect(page.locator(tid('replay-error'))).toBeHidden();

  await page.locator(tid('replay-provider')).fill('');
  await page.locator(tid('replay-tools')).selectOption('recorded');
  await page.locator(tid('replay-submit')).click();
  await expect(transcript).not.toHaveAttribute('data-dialog', origin);
  await expect(page.locator(tid('replay-form'))).toBeHidden();
  await expect(page.locator(tid('fork-origin'))).toContainText(origin);
  await expect(transcript.locator(`${tid('tool-call')}[data-name="read_file"]`).last()).toBeVisible();
  await expect(transcript.locator(tid('msg-assistant')).last()).toHaveText(answer);
  await expect(page.locator(tid('dialog-status')), 'the state the replay\'s drive left').not.toHaveText(/queued|running/);
  await expectAccessible(page, 'a replay');
});
