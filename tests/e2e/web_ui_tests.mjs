// Browser tests of the web UI: the hierarchy streamed live, a subdialog and its question for the
// human answered inline, stop and resume, tool output as it is, linked dialogs, a phone's panes, the
// demo team, theme and language, markdown and its sanitising, a wrong token and other origins
// refused (a DNS-rebound name: dns_rebinding_tests.mjs), a reconnect after a restart, the records
// view, done/archived/reopened roots and stop all / resume all. Each test has its own `parley serve`
// and browser context (fixtures.mjs); run.mjs or `npx playwright test` runs them
// (playwright.config.mjs).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { PHONE, VIEWPORTS, anyWith, dialogsOf, expect, gotoApp, teamDir, test, textOf, tid } from './fixtures.mjs';

// The root of a finished hierarchy: its status stays "running" (roots are not completed by the
// engine), waiting for nothing, which the UI shows as idle.
const ROOT_DONE_STATUS = 'idle';

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

test('hierarchy: stream, subdialog, Q4H answered inline, root completes', async ({ server, page, takeScreenshot }) => {
  await page.addInitScript(RECORD_THINKING);
  await gotoApp(page, server.url);
  await expect(page.locator(tid('offline-banner')).first(), 'the scripted-offline banner').toBeVisible();
  await expect(page.locator(tid('ws-status')).first(), 'the WebSocket status').toHaveAttribute('data-state', 'open');
  await expect(page.locator(tid('members')), 'the team panel').toContainText(anyWith('@clerk'));
  expect(await page.locator(tid('member')).count(), 'the team panel lists 2 members').toBe(2);
  await expect(page.locator(tid('q4h-badge')).first(), 'the Q4H badge').toHaveAttribute('data-count', '0');

  // Start a dialog with the lead.
  await page.locator(tid('new-member')).selectOption('lead');
  await page.locator(tid('new-content')).fill('Plan the launch');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('thinking-body')).first(), 'the streamed thinking').toBeVisible();
  await expect(page.locator(`${tid('transcript')} .streaming`).first(), 'a segment still streaming').toBeVisible();
  // While it streams, the thinking block and the tree node's live line are as tall as the moment.
  await takeScreenshot('01-streaming', [
    { selector: tid('thinking-body'), growing: true },
    tid('offline-banner'),
    { selector: tid('tree-node'), growing: true },
  ]);
  await expect(page.locator(tid('saying')), 'the streamed saying').toContainText(anyWith('I will ask the clerk'));
  expect(await page.locator(`${tid('saying')} strong`).first().textContent(), 'saying is rendered as markdown (**clerk** → <strong>)').toBe('clerk');
  await expect(page.locator(tid('msg-user')), 'the user message').toContainText(anyWith('Plan the launch'));
  const lengths = await page.evaluate(() => window.__thinkingLengths);
  const full = lengths[lengths.length - 1];
  const partial = lengths.filter((n) => n > 0 && n < full);
  expect(partial.length >= 3, `thinking streamed in chunks (lengths seen: ${lengths.join(',')})`).toBeTruthy();
  expect((await page.locator(tid('dialog-list') + ' ' + tid('dialog-item')).count()) >= 1, 'the new dialog is in the list').toBeTruthy();

  // The Tellask makes a subdialog: it appears in the tree, and the call links to it.
  await expect(page.locator(`${tid('tree-node')}[data-member="clerk"]`).first(), 'the clerk subdialog in the tree').toBeVisible();
  await expect(page.locator(tid('tellask-call')).first(), 'the tellaskSessionless call').toBeVisible();
  await expect(page.locator(tid('tellask-link')).first(), 'the link from the Tellask call to its subdialog').toBeVisible();
  const subId = await page.locator(`${tid('tree-node')}[data-member="clerk"]`).first().getAttribute('data-id');

  // The clerk asks the human: the badge counts it.
  await expect(page.locator(tid('q4h-badge')).first(), 'the Q4H badge').toHaveAttribute('data-count', '1');
  await expect(page.locator(tid('q4h-item')).first(), 'the question in the Q4H panel').toBeVisible();
  await expect(page.locator(tid('q4h-list')), 'the Q4H panel').toContainText(anyWith('Which day?'));
  await takeScreenshot('02-q4h', [tid('q4h-badge'), tid('q4h-item')]);

  // Follow the question to its call site and answer it in the input box.
  await page.locator(tid('q4h-link')).first().click();
  await expect(page.locator(tid('transcript')).first(), 'the open dialog').toHaveAttribute('data-dialog', subId);
  await expect(page.locator(tid('dialog-title')), 'the dialog title').toContainText(anyWith('@clerk'));
  await expect(page.locator(tid('askhuman-call')).first(), 'the askHuman call site').toBeVisible();
  expect(await page.locator(tid('askhuman-call')).first().isVisible(), 'the askHuman call is on screen').toBeTruthy();
  const inView = await page
    .locator(tid('askhuman-call'))
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const sc = document.querySelector('[data-testid="transcript-scroll"]').getBoundingClientRect();
      return r.bottom > sc.top && r.top < sc.bottom;
    });
  expect(inView, 'the askHuman call is scrolled into view').toBeTruthy();
  await expect(page.locator(tid('answer-mode')).first(), 'the answer mode of the input box').toBeVisible();
  await expect(page.locator(tid('answer-question-text')), 'the answer mode').toContainText(anyWith('Which day?'));
  await takeScreenshot('03-answering', [tid('answer-mode'), tid('answer-question-text')]);
  const transcriptFetches = [];
  const countFetch = (r) => r.url().includes('/transcript') && transcriptFetches.push(r.url());
  page.on('request', countFetch);
  await page.locator(tid('input')).fill('Friday');
  await page.locator(tid('send')).click();
  // The answer appears as it enters the log (question_answered_evt), not at the next reload.
  await expect(page.locator(tid('tellask-result')), 'the human\'s answer in the subdialog').toContainText(anyWith('Friday'));
  expect(transcriptFetches.length, `the answer came live, not from a refetch (${transcriptFetches.join(', ')})`).toBe(0);
  page.off('request', countFetch);
  await expect(page.locator(tid('q4h-badge')).first(), 'the Q4H badge after the answer').toHaveAttribute('data-count', '0');
  expect(await page.locator(tid('answer-mode')).isHidden(), 'the answer mode ends after the answer').toBeTruthy();

  // The subdialog finishes; the root resumes and completes.
  await expect(page.locator(tid('saying')), 'the clerk\'s final saying').toContainText(anyWith('Venue booked for Friday'));
  await expect(page.locator(tid('dialog-status')).first(), 'the clerk subdialog status').toHaveAttribute('data-status', 'completed');
  // A completed dialog takes no more messages: the composer says so instead of failing a send.
  await expect(page.locator(tid('composer-note')), 'the composer on a completed dialog').toContainText(anyWith('completed'));
  expect(await page.locator(tid('input')).isDisabled(), 'the input is disabled on a completed dialog').toBeTruthy();
  expect(await page.locator(tid('send')).isDisabled(), 'send is disabled on a completed dialog').toBeTruthy();
  await page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row`).click();
  await expect(page.locator(tid('transcript')).first(), 'the open dialog').not.toHaveAttribute('data-dialog', subId);
  await expect(page.locator(tid('saying')), 'the root\'s final saying').toContainText(anyWith('Done.'));
  await expect(page.locator(tid('transcript')), 'the root transcript').toContainText(anyWith('Venue booked for Friday'));
  await expect(page.locator(tid('tellask-result')).first(), 'the Tellask result in the root').toBeVisible();
  await expect(page.locator(tid('dialog-status')).first(), 'the root status').toHaveAttribute('data-status', ROOT_DONE_STATUS);
  await expect(page.locator(`${tid('tree-node')}[data-member="clerk"] .status`).first(), 'the clerk in the tree').toHaveAttribute('data-status', 'completed');
  await takeScreenshot('04-completed', [tid('tellask-result'), tid('dialog-status'), `${tid('tree-node')}[data-member="clerk"]`]);
  // Its last answer was given: resume would only repeat it, so it is not offered.
  expect(await page.locator(tid('btn-resume')).isDisabled(), 'resume is disabled on a root whose work is done').toBeTruthy();

  // Collapsing drops the subtree from the page; expanding fetches it again.
  const childrenFetches = [];
  page.on('request', (r) => r.url().endsWith('/children') && childrenFetches.push(r.url()));
  const rootToggle = page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row ${tid('tree-toggle')}`);
  await rootToggle.click();
  await expect(page.locator(`${tid('tree-node')}[data-member="clerk"]`), 'the collapsed subtree').toHaveCount(0);
  expect(childrenFetches.length, 'collapsing fetches nothing').toBe(0);
  await rootToggle.click();
  await expect(page.locator(`${tid('tree-node')}[data-member="clerk"]`).first(), 'the clerk after expanding again').toBeVisible();
  expect(childrenFetches.length, `expanding refetches the children once (${childrenFetches.length})`).toBe(1);
});

test('stop interrupts a streaming reply; resume is offered', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('tell me a long story');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the streamed saying').toContainText(anyWith('Once upon'));
  await expect(page.locator(tid('dialog-status')).first(), 'the status while streaming').toHaveAttribute('data-status', 'generating');
  expect(await page.locator(tid('btn-interrupt')).isEnabled(), 'stop is enabled while generating').toBeTruthy();
  await page.locator(tid('btn-interrupt')).click();
  await expect(page.locator(tid('interrupted')).first(), 'the interrupted mark').toBeVisible();
  await expect(page.locator(tid('dialog-status')).first(), 'the status after the stop').toHaveAttribute('data-status', 'idle');
  const said = await textOf(page, tid('saying'));
  expect(said.length > 0 && !said.includes('on and on and on.'), 'the partial saying is kept, not the whole text').toBeTruthy();
  await expect(page.locator(`${tid('btn-resume')}:not([disabled])`), 'resume offered').toBeVisible();
  await expect(page.locator(tid('btn-resume')).first(), 'why resume applies').toHaveAttribute('data-reason', 'interrupted');
  expect(await page.locator(tid('btn-interrupt')).isDisabled(), 'stop is disabled after the stop').toBeTruthy();
  // Resume goes on with the stopped generation; while it runs, resume no longer applies.
  await page.locator(tid('btn-resume')).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the status after resume').toHaveAttribute('data-status', 'generating');
  expect(await page.locator(tid('btn-resume')).isDisabled(), 'resume is disabled while generating').toBeTruthy();
  await page.locator(`${tid('btn-interrupt')}:not([disabled])`).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the status after the second stop').toHaveAttribute('data-status', 'idle');
  expect(await page.locator(tid('interrupted')).count(), 'both stopped generations are marked').toBe(2);
});

for (const [label, viewport] of VIEWPORTS) {
  test.describe(() => {
    test.use({ viewport });
    test(`tool arguments and output are shown as they are (${label})`, async ({ server, page, context, takeScreenshot }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
      await gotoApp(page, server.url);
      await page.locator(tid('new-content')).fill('read the source');
      await page.locator(tid('new-start')).click();
      await expect(page.locator(tid('saying')), 'the final saying').toContainText(anyWith('I read the three files.'));
      const outputs = page.locator(tid('tool-output-text'));
      await expect(outputs, 'the three outputs').toHaveCount(3);
      const source = readFileSync(join(teamDir, 'src', 'hello.cpp'), 'utf8');
      expect(await outputs.nth(0).textContent(), "read_file's output is the file byte for byte").toBe(source);
      expect(await page.locator(`${tid('tool-output')} h1, ${tid('tool-output')} strong`).count(), 'no Markdown inside tool output').toBe(0);
      const look = await outputs.nth(0).evaluate((el) => ({ ws: getComputedStyle(el).whiteSpace, font: getComputedStyle(el).fontFamily }));
      expect(look.ws === 'pre-wrap' && /mono/i.test(look.font), `monospace with whitespace kept (${JSON.stringify(look)})`).toBeTruthy();
      const json = readFileSync(join(teamDir, 'src', 'settings.json'), 'utf8');
      expect(await outputs.nth(1).textContent(), 'JSON output is pretty-printed').toBe(JSON.stringify(JSON.parse(json), null, 2));

      // The long one starts collapsed; expanding shows all of it; copying copies all of it.
      const long = page.locator(tid('tool-output')).nth(2);
      expect(await long.getAttribute('data-collapsed'), 'long output starts collapsed').toBe('true');
      const clipped = await long.locator('pre').evaluate((el) => el.scrollHeight > el.clientHeight + 20);
      expect(clipped, 'collapsed output is clipped').toBeTruthy();
      await long.locator(tid('tool-output-expand')).click();
      await expect(page.locator(`${tid('tool-output')}[data-collapsed]`).first(), 'the expanded output').toHaveAttribute('data-collapsed', 'false');
      const whole = await long.locator('pre').evaluate((el) => el.scrollHeight <= el.clientHeight + 1);
      expect(whole, 'expanded output shows every line').toBeTruthy();
      await long.locator(tid('tool-output-copy')).click();
      const guests = readFileSync(join(teamDir, 'src', 'guests.txt'), 'utf8');
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { message: 'the whole output on the clipboard' }).toBe(guests);

      // Arguments are pretty-printed JSON too.
      await page.locator(`${tid('tool-call')} summary`).first().click();
      const args = await page.locator(tid('tool-args-text')).first().textContent();
      expect(args, 'the arguments as pretty JSON').toBe(JSON.stringify({ path: 'src/hello.cpp' }, null, 2));
      await outputs.nth(0).scrollIntoViewIfNeeded();
      await takeScreenshot(`08-tool-output-${viewport.width}`, [tid('tool-output-text'), tid('tool-args-text')]);
    });
  });
}

const openDialogIs = (page, id, what) => expect(page.locator(tid('transcript')).first(), `${what}: the open dialog`).toHaveAttribute('data-dialog', id);

for (const [label, viewport] of VIEWPORTS) {
  test.describe(() => {
    test.use({ viewport, consoleAllows: /status of 404/ });
    test(`dialogs are titled and linked: #/dialog/ID, back and forward, reload (${label})`, async ({ server, page, takeScreenshot }) => {
      await gotoApp(page, server.url);
      await page.locator(tid('new-member')).selectOption('lead');
      await page.locator(tid('new-content')).fill('Plan the launch\nwith a venue and a date');
      await page.locator(tid('new-start')).click();
      // A phone folds the tree to its summary line until it is opened.
      if (viewport.width < 600) await page.locator(tid('tree-summary')).click();
      const sub = `${tid('tree-node')}[data-member="clerk"]`;
      await expect(page.locator(sub).first(), 'the clerk subdialog in the tree').toBeVisible();
      const rootId = await page.locator(tid('transcript')).getAttribute('data-dialog');
      expect(await page.evaluate(() => location.hash), 'the address names the new dialog').toBe(`#/dialog/${rootId}`);
      // Titled by its first line; the subdialog by its task, not by the tool that made it.
      await expect(page.locator(`${tid('dialog-item')} .di-title`), 'the dialog list').toContainText(anyWith('Plan the launch'));
      expect(await textOf(page, `${tid('dialog-item')} .di-title`), 'the title is the first line').toBe('Plan the launch');
      await expect(page.locator(`${sub} ${tid('tree-label')}`), 'the subdialog\'s label').toContainText(anyWith('Book a venue for the launch.'));
      expect(!(await textOf(page, `${sub} ${tid('tree-label')}`)).includes('tellaskSessionless'), 'no tool name in the label').toBeTruthy();
      const subId = await page.locator(sub).getAttribute('data-id');
      await page.locator(`${sub} > .tree-row`).click();
      await openDialogIs(page, subId, 'the clerk after a click in the tree');
      expect(await page.evaluate(() => location.hash), 'the address follows the open dialog').toBe(`#/dialog/${subId}`);

      await page.goBack();
      await openDialogIs(page, rootId, 'back');
      await page.goForward();
      await openDialogIs(page, subId, 'forward');
      await page.reload();
      await expect(page.locator('body[data-ready="true"]'), 'the page ready again').toBeAttached();
      await openDialogIs(page, subId, 'after a reload');
      await expect(page.locator(tid('dialog-title')), 'the title after a reload').toContainText(anyWith('@clerk'));
      if (viewport.width < 600) await page.locator(tid('tree-summary')).click(); // folded again on a phone
      await takeScreenshot(`09-linked-${viewport.width}`, [tid('dialog-title'), tid('tree-label')]);

      // An address that names no dialog says so where the dialog would be.
      await page.evaluate(() => (location.hash = '#/dialog/no-such-dialog'));
      await expect(page.locator(tid('missing-dialog')).first(), 'the missing dialog notice').toBeVisible();
      await expect(page.locator(tid('missing-dialog')), 'the missing dialog notice').toContainText(anyWith('no-such-dialog'));
    });
  });
}

test.describe(() => {
  test.use({ viewport: PHONE });
  test('a phone (390×844): one pane at a time, nothing squeezed, every panel reachable', async ({ server, page, takeScreenshot }) => {
    await gotoApp(page, server.url);
    const view = page.viewportSize();
    const noSideways = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await noSideways(), 'the page does not scroll sideways').toBeTruthy();
    await expect(page.locator(tid('pane-tabs')).first(), 'the pane tabs').toBeVisible();
    const bar = await page.locator('.topbar').boundingBox();
    expect(bar.height < 56, `the top bar is one line (${bar.height} px)`).toBeTruthy();
    await expect(page.locator(tid('new-content')).first(), 'the new dialog form in the first pane').toBeVisible();
    const form = await page.locator(tid('new-dialog')).boundingBox();
    expect(form.width > view.width * 0.8, `the form has the width of the screen (${form.width})`).toBeTruthy();
    await page.locator(tid('new-member')).selectOption('lead');
    await page.locator(tid('new-content')).fill('Plan the launch');
    await page.locator(tid('new-start')).click();

    // The conversation takes the screen: a title with room, buttons on one line each.
    await expect(page.locator(tid('transcript')).first(), 'the transcript').toBeVisible();
    expect(await page.locator(tid('new-content')).isHidden(), 'the dialog list pane is put away').toBeTruthy();
    const title = await page.locator(tid('dialog-title')).boundingBox();
    expect(title && title.width > 100, `the title has room (${title?.width})`).toBeTruthy();
    for (const id of ['btn-interrupt', 'btn-resume', 'view-records', 'view-transcript']) {
      const box = await page.locator(tid(id)).boundingBox();
      expect(box && box.height < 40 && box.x + box.width <= view.width, `${id} is one line inside the screen (${JSON.stringify(box)})`).toBeTruthy();
    }
    const composer = await page.locator(tid('composer')).boundingBox();
    expect(composer && composer.y + composer.height <= view.height + 1, 'the composer is on screen').toBeTruthy();
    // A phone folds the tree to its summary line (issue 43: the transcript first); one tap opens it.
    await page.locator(tid('tree-summary')).click();
    await expect(page.locator(`${tid('tree-node')}[data-member="clerk"]`).first(), 'the tree').toBeVisible();

    // The question reaches the panels pane; following it leads back to the conversation.
    await expect(page.locator(tid('pane-q4h-count')).first(), 'the question count on the panels tab').toHaveAttribute('class', 'badge small');
    await page.locator(tid('pane-right')).click();
    await expect(page.locator(tid('q4h-item')).first(), 'the question in the panels pane').toBeVisible();
    const panel = await page.locator(tid('q4h-panel')).boundingBox();
    expect(panel.width > view.width * 0.8 && panel.height > 64, `the Q4H panel is not squeezed (${JSON.stringify(panel)})`).toBeTruthy();
    await expect(page.locator(tid('reminders-panel')).first(), 'the reminders panel').toBeVisible();
    await takeScreenshot('10-phone-panels', [tid('q4h-item'), tid('pane-tabs')]);
    await page.locator(tid('q4h-link')).first().click();
    await expect(page.locator(tid('answer-mode')).first(), 'the answer mode').toBeVisible();
    await page.locator(tid('input')).fill('Friday');
    await page.locator(tid('send')).click();
    await expect(page.locator(tid('saying')), 'the clerk\'s reply').toContainText(anyWith('Venue booked for Friday'));
    expect(await noSideways(), 'still no sideways scrolling').toBeTruthy();
    await takeScreenshot('11-phone-conversation', [tid('dialog-title'), tid('composer'), tid('pane-tabs')]);

    // A long conversation scrolls inside its pane.
    await page.locator(tid('pane-left')).click();
    await page.locator(tid('new-content')).fill('read the source');
    await page.locator(tid('new-start')).click();
    await expect(page.locator(tid('saying')), 'the last saying').toContainText(anyWith('I read the three files.'));
    const scrolls = await page.locator(tid('transcript-scroll')).evaluate((el) => {
      el.scrollTop = 0;
      const top = el.scrollTop;
      el.scrollTop = el.scrollHeight;
      return el.scrollHeight > el.clientHeight && el.scrollTop > top;
    });
    expect(scrolls, 'the transcript scrolls').toBeTruthy();
  });
});

test.describe(() => {
  test.use({ serverOptions: { team: 'examples/demo' } });
  test('the demo team shows the hierarchy on the first run: tree, question, reminder, Taskdoc', async ({ server, page, takeScreenshot }) => {
    await gotoApp(page, server.url);
    // The Team panel names what answers: the scripted model, not the live model the file asks for.
    await expect(page.locator(tid('members')), 'the team panel').toContainText(anyWith('@researcher'));
    const models = await page.locator(tid('member-model')).allTextContents();
    expect(models.every((m) => m.includes('scripted') && !m.includes('gpt')), `the team panel claims no live model: ${models.join(' | ')}`).toBeTruthy();
    await page.locator(tid('new-content')).fill('Plan the next sprint');
    await page.locator(tid('new-taskdoc')).fill('tasks/sprint.tsk');
    await page.locator(tid('new-start')).click();
    await expect(page.locator(`${tid('tree-node')}[data-member="researcher"]`).first(), 'the researcher subdialog in the tree').toBeVisible();
    await expect(page.locator(`${tid('tree-node')}[data-member="researcher"] ${tid('tree-label')}`), 'its task as its label').toContainText(anyWith('milestone 1'));
    await expect(page.locator(tid('q4h-badge')).first(), 'the researcher\'s question').toHaveAttribute('data-count', '1');
    await expect(page.locator(tid('reminder')), 'the lead\'s reminder').toContainText(anyWith('Report the sprint hours'));
    await expect(page.locator(tid('taskdoc-goals')), 'the Taskdoc goals').toContainText(anyWith('Find milestone 1'));
    await takeScreenshot('12-demo-first-run', [`${tid('tree-node')}[data-member="researcher"]`, tid('q4h-item'), tid('reminder'), tid('taskdoc-goals')]);
    await page.locator(tid('q4h-link')).first().click();
    await page.locator(tid('input')).fill('the CLI');
    await page.locator(tid('send')).click();
    await page.locator(`${tid('tree-node')}[data-kind="root"] > .tree-row`).click();
    await expect(page.locator(tid('saying')), 'the lead\'s answer').toContainText(anyWith('864 hours'));
  });
});

test('theme and language toggles change the page and are remembered', async ({ server, page, takeScreenshot }) => {
  await gotoApp(page, server.url);
  await expect(page.locator('html').first(), 'the initial theme').toHaveAttribute('data-theme', 'light');
  const bgLight = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.locator(tid('theme-toggle')).click();
  await expect(page.locator('html').first(), 'the theme after the toggle').toHaveAttribute('data-theme', 'dark');
  const bgDark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bgLight !== bgDark, `the dark theme changes the background (${bgLight} → ${bgDark})`).toBeTruthy();

  expect(await textOf(page, tid('tab-running')), 'English tab label').toBe('Running');
  await page.locator(tid('lang-toggle')).click();
  await expect(page.locator('html').first(), 'the language after the toggle').toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator(tid('tab-running')), 'the running tab').toContainText(anyWith('进行中'));
  await expect(page.locator(tid('new-start')), 'the start button').toContainText(anyWith('开始'));
  await expect(page.locator(tid('offline-banner')), 'the offline banner').toContainText(anyWith('离线模式'));
  expect(await page.locator(tid('new-content')).getAttribute('placeholder'), 'placeholders follow the language').toBe('要团队做什么？');
  await takeScreenshot('05-dark-zh', [tid('tab-running'), tid('new-start'), tid('offline-banner')]);

  await page.reload();
  await expect(page.locator('body[data-ready="true"]'), 'the page ready again').toBeAttached();
  await expect(page.locator('html').first(), 'the theme after a reload').toHaveAttribute('data-theme', 'dark');
  await expect(page.locator(tid('tab-running')), 'the language after a reload').toContainText(anyWith('进行中'));
  await page.locator(tid('lang-toggle')).click();
  await expect(page.locator(tid('tab-running')), 'the running tab back in English').toContainText(anyWith('Running'));
  await page.locator(tid('theme-toggle')).click();
  await expect(page.locator('html').first(), 'the theme toggled back').toHaveAttribute('data-theme', 'light');
});

test('markdown is rendered and sanitised; Taskdoc and reminders panels; search', async ({ server, page, takeScreenshot }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('show me markdown');
  await page.locator(tid('new-taskdoc')).fill('tasks/launch.tsk');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('taskdoc-goals')), 'the Taskdoc panel').toContainText(anyWith('Launch on Friday.'));
  await expect(page.locator(tid('taskdoc-path')), 'the Taskdoc path').toContainText(anyWith('launch.tsk'));
  await expect(page.locator(tid('reminder')), 'the reminders panel').toContainText(anyWith("Check the venue's wifi."));
  await expect(page.locator(tid('saying')), 'the saying').toContainText(anyWith('Some bold'));
  await expect(page.locator(`${tid('saying')} strong`).first(), 'bold in the saying').toBeVisible();
  // The saying is still streaming until the dialog is done; only then is the whole list there.
  await expect(page.locator(tid('dialog-status')).first(), 'the dialog status').toHaveAttribute('data-status', ROOT_DONE_STATUS);
  await expect(page.locator(`${tid('saying')} li`).nth(1), 'the second list item').toBeVisible();
  expect(await page.locator(`${tid('saying')} li`).count(), 'the list is rendered').toBe(2);
  const unsafe = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    scripts: document.querySelectorAll('[data-testid="saying"] script').length,
    handlers: document.querySelectorAll('[data-testid="saying"] [onerror]').length,
    jsLinks: [...document.querySelectorAll('[data-testid="saying"] a')].filter((a) => /^javascript:/i.test(a.getAttribute('href') ?? '')).length,
  }));
  expect(unsafe.pwned, `no script of the model ran (window.__pwned = ${unsafe.pwned})`).toBeNull();
  expect(unsafe.scripts === 0 && unsafe.handlers === 0 && unsafe.jsLinks === 0, `no unsafe markup survives: ${JSON.stringify(unsafe)}`).toBeTruthy();
  // The search of the dialog list finds it.
  await page.locator(tid('dialog-search')).fill('markdown');
  await expect(page.locator(tid('dialog-item')), 'the dialog list searched for "markdown"').toHaveCount(1);
  await page.locator(tid('dialog-search')).fill('no such dialog at all');
  await expect(page.locator(tid('dialog-item')), 'the dialog list searched for nothing there').toHaveCount(0);
  await takeScreenshot('07-markdown-panels', [tid('taskdoc-goals'), tid('reminder'), `${tid('saying')} li`]);
});

test.describe(() => {
  test.use({ serverOptions: { token: 'e2e-secret-token' }, consoleAllows: /status of 401/ });
  test('a wrong token shows an auth error; the right one works', async ({ page, server, takeScreenshot }) => {
    const url = new URL(server.url);
    expect(url.hash.startsWith('#token='), `the server prints its URL with #token= (${server.url})`).toBeTruthy();
    await page.goto(`${url.origin}/#token=wrong-token`);
    await expect(page.locator(tid('auth-error')).first(), 'the auth error banner').toBeVisible();
    await takeScreenshot('06-auth-error', [tid('auth-error')]);
    expect(!(await page.evaluate(() => location.hash)).includes('token'), 'the token is taken out of the address bar').toBeTruthy();

    const ok = await page.context().newPage();
    await gotoApp(ok, server.url);
    await expect(ok.locator(tid('ws-status')).first(), 'the WebSocket with the right token').toHaveAttribute('data-state', 'open');
    expect(await ok.locator(tid('auth-error')).isHidden(), 'no auth error with the right token').toBeTruthy();
    await expect(ok.locator(tid('members')), 'the team panel with the right token').toContainText(anyWith('@lead'));
    await ok.close();
  });
});

test.describe(() => {
  test.use({ consoleAllows: /WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/ });
  test('the WebSocket reconnects after a server restart and the dialog goes on live', async ({ server, page, startServer }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-content')).fill('hello there');
    await page.locator(tid('new-start')).click();
    await expect(page.locator(tid('saying')), 'the first reply').toContainText(anyWith('Tell me about the launch.'));
    await expect(page.locator(tid('ws-status')).first(), 'the WebSocket').toHaveAttribute('data-state', 'open');

    // Same port, same data, a new process (a new epoch): the page reconnects and resubscribes.
    const port = new URL(server.url).port;
    server.keepData = true;
    await server.stop();
    await expect(page.locator(tid('ws-status')).first(), 'the WebSocket after the server stopped').toHaveAttribute('data-state', 'closed');
    // Said plainly; a send while it is down is refused with a sentence and the text is kept.
    await expect(page.locator(tid('conn-banner')).first(), 'the reconnecting banner').toBeVisible();
    await page.locator(tid('input')).fill('sent while down');
    await page.locator(tid('send')).click();
    await expect(page.locator(tid('error-banner')), 'the refused send').toContainText(anyWith('cannot be reached'));
    expect(!(await textOf(page, tid('error-banner'))).includes('Failed to fetch'), 'no "Failed to fetch"').toBeTruthy();
    expect(await page.locator(tid('input')).inputValue(), 'the text stays in the box').toBe('sent while down');
    // Stopped, with the data dir, at the end of the test (the fixture stops every server it started).
    const again = await startServer({ port, data: server.data });
    expect(new URL(again.url).port, `the new server took the same port (${again.url})`).toBe(port);
    await expect(page.locator(`${tid('ws-status')}[data-state="open"]`), 'the WebSocket back open').toBeVisible({ timeout: 30000 });
    expect(await page.locator(tid('conn-banner')).isHidden(), 'the banner goes once the connection is back').toBeTruthy();
    await page.locator(tid('input')).fill('tell me a long story');
    await page.locator(tid('send')).click();
    await expect(page.locator(tid('saying')), 'the reply streamed after the reconnect').toContainText(anyWith('Once upon'));
    expect(await page.locator(tid('msg-user')).count(), 'both user messages are shown once').toBe(2);
    await page.locator(tid('btn-interrupt')).click();
    await expect(page.locator(tid('interrupted')).first(), 'the interrupted mark').toBeVisible();
  });
});

test.describe(() => {
  test.use({
    serverOptions: { args: ['--turn-window', '2'] },
    // The refused search syntax is a 400 on purpose (its message is what the test reads).
    consoleAllows: /status of 400 \(Bad Request\) \(\S+\/api\/messages\/search\?q=foo%20AND%20bar/,
  });
  test('records: sessions and turns on a timeline, an unresponded turn marked, search leads to its turn', async ({ server, page, takeScreenshot }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-member')).selectOption('lead');
    await page.locator(tid('new-content')).fill('Plan the launch');
    await page.locator(tid('new-start')).click();
    // The lead waits for the clerk, who waits for the human: the root's turn outlives its 2 s window.
    await expect(page.locator(tid('q4h-item')).first(), 'the clerk\'s question').toBeVisible();
    await page.locator(tid('view-records')).click();
    await expect(page.locator(tid('records')).first(), 'the records view').toBeVisible();
    expect(await page.locator(tid('composer')).isHidden(), 'the composer is hidden in the records view').toBeTruthy();
    const unresponded = `${tid('record-turn')}[data-status="unresponded"]`;
    // The view shows the records as they were when it opened: refreshed every 250 ms until one is.
    await expect(async () => {
      if ((await page.locator(unresponded).count()) > 0) return;
      await page.locator(tid('records-refresh')).click();
      expect(await page.locator(unresponded).count(), 'an unresponded turn after a refresh').toBeGreaterThan(0);
    }, 'the records refreshed until a turn is unresponded').toPass({ intervals: [250], timeout: 30000 });
    await expect(page.locator(unresponded).first(), 'the unresponded turn').toBeVisible();
    await expect(page.locator(`${unresponded} ${tid('unresponded-mark')}`).first(), 'the unresponded mark').toBeVisible();
    // How many turns the window closed depends on how fast the model streamed; the count must agree.
    const marked = await page.locator(unresponded).count();
    await expect(page.locator(tid('unresponded-count')).first(), 'the unresponded count').toHaveAttribute('data-count', String(marked));
    const sessions = await page.locator(tid('record-session')).count();
    expect(sessions, `one session (got ${sessions})`).toBe(1);
    expect(await page.locator(tid('record-session')).first().getAttribute('data-session-type'), 'a dialogue session').toBe('dialogue');

    // A turn shows its messages when opened: the first holds the human's request, and the lead's
    // words are in one of them.
    const first = page.locator(tid('record-turn')).first();
    expect(await first.getAttribute('data-status'), 'the human\'s turn went unanswered').toBe('unresponded');
    expect(await page.locator(`${tid('record-turn')} ${tid('record-message')}`).first().isHidden(), 'messages start folded').toBeTruthy();
    for (const line of await page.locator(`${tid('record-turn')} .rec-turn-line`).all()) await line.click();
    await expect(page.locator(`${tid('record-turn')} ${tid('record-message')}[data-role="human"]`), 'the human message').toContainText(anyWith('Plan the launch'));
    await expect(page.locator(`${tid('record-turn')} ${tid('record-message')}[data-role="ai"]`), 'the lead\'s words').toContainText(anyWith('clerk'));
    // Labels are words, not internal names; the lead's Tellask shows its tool and arguments.
    const recordsText = await textOf(page, tid('records'));
    for (const internal of ['human_query', 'human → ai', 'tool_input', 'tool_output']) {
      expect(!recordsText.includes(internal), `the records view shows '${internal}'`).toBeTruthy();
    }
    await expect(page.locator(tid('record-tool-call')), 'the Tellask call in the records').toContainText(anyWith('tellaskSessionless'));
    await expect(page.locator(tid('record-tool-args-text')), 'its arguments').toContainText(anyWith('Book a venue for the launch.'));
    expect((await page.locator(`${tid('record-message')} strong`).count()) > 0, 'Markdown renders in the records').toBeTruthy();
    await takeScreenshot('07-records', [tid('records'), unresponded, tid('records-bar'), tid('record-tool-call')]);

    // The Chinese mode translates labels, the placeholder and the dates.
    const enTime = await textOf(page, `${tid('record-turn')} .rec-time`);
    await page.locator(tid('lang-toggle')).click();
    await expect(page.locator(tid('record-who')), 'the roles in Chinese').toContainText(anyWith('人类'));
    await expect(page.locator(`${tid('record-turn')} .rec-time`).first(), 'the dates in Chinese').toHaveText(/^\d{4}\/\d{1,2}\/\d{1,2}/);
    expect(await page.locator(tid('records-search')).getAttribute('placeholder'), 'the search placeholder in Chinese').toBe('搜索本对话…');
    expect(/AM|PM/.test(enTime), `dates were English before (${enTime})`).toBeTruthy();
    await takeScreenshot('07-records-zh', [tid('records'), tid('record-who')]);
    await page.locator(tid('lang-toggle')).click();
    await expect(page.locator(tid('record-who')), 'the roles in English again').toContainText(anyWith('Human'));
    for (const line of await page.locator(`${tid('record-turn')} .rec-turn-line`).all()) await line.click();

    // Search finds the message and leads to its turn.
    await page.locator(tid('records-search')).fill('launch');
    await page.locator(tid('records-search-go')).click();
    await expect(page.locator(tid('search-result')).first(), 'a search result').toBeVisible();
    await page.locator(tid('search-result')).first().click();
    await expect(page.locator(`${tid('record-turn')}.highlight.open`).first(), 'the found turn, highlighted and open').toBeVisible();
    // Search syntax is refused with the server's message; a word nobody wrote finds nothing.
    await page.locator(tid('records-search')).fill('foo AND bar');
    await page.locator(tid('records-search-go')).click();
    await expect(page.locator(tid('records-search-error')), 'the refused search').toContainText(anyWith('q:'));
    await page.locator(tid('records-search')).fill('zebracrossing');
    await page.locator(tid('records-search-go')).click();
    await expect(page.locator(tid('no-matches')).first(), 'the no-matches line').toBeVisible();
    expect((await page.locator(tid('records-search-error')).isHidden()), 'the old error is gone').toBeTruthy();

    // Back to the transcript.
    await page.locator(tid('view-transcript')).click();
    await expect(page.locator(tid('transcript')).first(), 'the transcript').toBeVisible();
    expect(await page.locator(tid('records-scroll')).isHidden(), 'the records are hidden again').toBeTruthy();
  });
});

test('the page carries its own secret: the UI works without #token', async ({ server, page }) => {
  const url = new URL(server.url);
  expect(url.hash.startsWith('#token='), `on loopback the server still prints its secret (${server.url})`).toBeTruthy();
  const html = await (await fetch(`${url.origin}/`)).text();
  expect(html.includes(`<meta name="parley-token" content="${url.hash.slice(7)}">`), 'index.html carries the secret').toBeTruthy();
  await gotoApp(page, `${url.origin}/`); // no #token: the page's own meta tag is all it has
  await expect(page.locator(tid('ws-status')).first(), 'the WebSocket with the page\'s secret').toHaveAttribute('data-state', 'open');
  await expect(page.locator(tid('members')), 'the team panel').toContainText(anyWith('@lead'));
  expect(await page.locator(tid('auth-error')).isHidden(), 'no auth error').toBeTruthy();
  await page.locator(tid('new-content')).fill('hello there');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the reply').toContainText(anyWith('Tell me about the launch.'));
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
  await expect.poll(() => page.evaluate(() => window.__attack?.done === true), { message: `the attack from ${origin} ran`, timeout: 30000 }).toBe(true);
  return page.evaluate(() => window.__attack);
}

test.describe(() => {
  test.use({ consoleAllows: /./ }); // the console here is the attacking page's: its refusals are the point
  test('a page of another origin cannot create, read or subscribe', async ({ server, page }) => {
    const target = new URL(server.url).origin;
    const other = await startOtherSite(ATTACK_PAGE(target));
    try {
      // From another site (localhost is not 127.0.0.1's site) and from the same host on another port.
      for (const origin of [`http://localhost:${other.port}`, `http://127.0.0.1:${other.port}`]) {
        const seen = await attackFrom(page, origin, target);
        const what = `${origin}: ${JSON.stringify(seen)}`;
        const listed = await dialogsOf(server);
        expect(listed.total, `no dialog was created (${what}): ${JSON.stringify(listed)}`).toBe(0);
        expect(seen.noCorsPost, `the no-cors POST went out and its answer stayed hidden (${what})`).toBe('sent (opaque)');
        expect(seen.formPost, `the form was posted (${what})`).toBe('submitted');
        expect(seen.readDialogs.startsWith('blocked'), `the dialog list cannot be read (${what})`).toBeTruthy();
        expect(seen.readPage.startsWith('blocked'), `the UI's page (and its secret) cannot be read (${what})`).toBeTruthy();
        expect(seen.websocket, `the WebSocket is refused before it opens (${what})`).toBe('closed 1006');
        // The page loads (and so waits for) its frames before it runs; the UI's frame-ancestors
        // 'none' leaves an error page where the UI would be.
        const framed = await (await page.$('#framed')).contentFrame();
        expect(!framed.url().startsWith(target), `the UI is not shown in another site's frame (${framed.url()})`).toBeTruthy();
      }
    } finally {
      await other.close();
    }
  });
});

test('a root is marked done, archived and reopened; stop all and resume all with their counts', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('hello there');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the answer').toContainText(anyWith('Tell me about the launch.'));
  await expect(page.locator(tid('dialog-status')).first(), 'the idle root').toHaveAttribute('data-status', 'idle');
  expect(await page.locator(tid('btn-reopen')).isHidden(), 'reopen is not offered on a running root').toBeTruthy();
  await page.locator(tid('btn-complete')).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the root marked done').toHaveAttribute('data-status', 'completed');
  await expect(page.locator(tid('composer-note')), 'the composer on a completed root').toContainText(anyWith('completed'));
  expect(await page.locator(tid('btn-complete')).isHidden(), 'mark done is gone once done').toBeTruthy();
  await page.locator(tid('tab-completed')).click();
  await expect(page.locator(tid('dialog-list')), 'the root under the completed tab').toContainText(anyWith('hello there'));
  await page.locator(tid('btn-archive')).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the archived root').toHaveAttribute('data-status', 'archived');
  await page.locator(tid('btn-reopen')).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the reopened root').toHaveAttribute('data-status', 'idle');
  expect(await page.locator(tid('input')).isEnabled(), 'the reopened root takes messages').toBeTruthy();

  // Run control: a long story streams; stop all stops it, resume all takes it up again.
  await page.locator(tid('tab-running')).click();
  await page.locator(tid('new-content')).fill('tell me a long story');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the streamed saying').toContainText(anyWith('Once upon'));
  await expect(page.locator(tid('running-count')), 'one dialog running').toContainText(anyWith('1'));
  await page.locator(`${tid('btn-stop-all')}:not([disabled])`).click();
  await expect(page.locator(tid('interrupted')).first(), 'the interrupted mark').toBeVisible();
  await expect(page.locator(tid('resumable-count')), 'one dialog to resume').toContainText(anyWith('1'));
  await expect(page.locator(tid('running-count')), 'nothing running').toContainText(anyWith('0'));
  await page.locator(`${tid('btn-resume-all')}:not([disabled])`).click();
  await expect(page.locator(tid('dialog-status')).first(), 'the dialog resumed').toHaveAttribute('data-status', 'generating');
  await page.locator(`${tid('btn-stop-all')}:not([disabled])`).click();
  await expect(page.locator(tid('dialog-status')).first(), 'stopped again').toHaveAttribute('data-status', 'idle');
});
