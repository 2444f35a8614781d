// Browser test of a flow's dialog (seed 004, issue 22 item 7): the article writer of
// examples/flows on the scripted model is started from the new-dialog form; its dialog shows the
// phase as a badge and waits for the user; the composer's answer goes to the flow, the page draws
// the thread it left — the outline's sub-thread as a closed block under its message, the review
// nested inside it, each with its own phase — and a completed flow's composer takes no more. A
// flow answered by another client is drawn live from the dialog's packets.
// Fixtures: fixtures.mjs.
import { anyWith, expect, gotoApp, test, tid } from './fixtures.mjs';

// Both run the article writer of examples/flows.
test.use({ serverOptions: { team: 'examples/flows' } });

test('a flow shows its phase, answers in the composer, and nests its sub-threads as expandable blocks', async ({ server, page, takeScreenshot }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-member')).selectOption('article_writer');
  await page.locator(tid('new-content')).fill('Write me an article');
  await page.locator(tid('new-start')).click();

  // The flow ran to its first question and waits in its first phase.
  await expect(page.locator(tid('flow-phase')).first(), 'the phase badge').toHaveAttribute('data-phase', 'initial_phase');
  await expect(page.locator(tid('flow-view')).first(), 'the flow waiting for the user').toHaveAttribute('data-state', 'flowWaits');
  await expect(page.locator(`${tid('flow-msg')}[data-sender="bot"]`), "the flow's question").toContainText(anyWith('What topic should the article cover'));
  expect(await page.locator(tid('flow-msg')).count(), 'the user message and the question').toBe(2);
  expect(!(await page.locator(tid('input')).isDisabled()), 'the composer takes the answer').toBeTruthy();
  await takeScreenshot('14-flow-waiting', [tid('flow-phase'), tid('flow-view')]);

  // The answer goes to the flow, which drafts and reviews the outline and writes the article.
  await page.locator(tid('input')).fill('Tea, for beginners');
  await page.locator(tid('send')).click();
  await expect(page.locator(tid('flow-view')).first(), 'the completed flow').toHaveAttribute('data-state', 'flowCompleted');
  await expect(page.locator(tid('flow-phase')).first(), 'the phase badge after the answer').toHaveAttribute('data-phase', 'article_writing');
  await expect(page.locator(`${tid('flow-thread')}[data-path=""] > ${tid('flow-msg')}[data-sender="bot"]`), 'the article').toContainText(anyWith('Tea for beginners. Tea matters because'));

  // The outline's sub-thread sits under the message that holds it, closed until opened.
  const outline = page.locator(`${tid('flow-subthread')}[data-path="messages.3.meta._thread"]`);
  expect(await outline.count(), 'one sub-thread at messages.3.meta._thread').toBe(1);
  const holder = await page.evaluate(() => {
    const block = document.querySelector('[data-testid="flow-subthread"][data-path="messages.3.meta._thread"]');
    return block?.previousElementSibling?.dataset.sender ?? null;
  });
  expect(holder, `the sub-thread follows its (bot) message: ${holder}`).toBe('bot');
  expect(await outline.getAttribute('open'), 'the sub-thread starts closed').toBeNull();
  const nestedPath = 'messages.3.meta._thread.messages.3.meta._thread';
  const nested = page.locator(`${tid('flow-subthread')}[data-path="${nestedPath}"]`);
  expect(!(await nested.isVisible()), 'the nested review is hidden inside the closed block').toBeTruthy();
  await outline.locator(`:scope > ${tid('flow-sub-summary')}`).click();
  await expect(page.locator(`${tid('flow-thread')}[data-path="messages.3.meta._thread"] > ${tid('flow-msg')}`), "the outline's first message").toContainText(anyWith('Draft an outline for an article'));
  expect(await outline.locator(`:scope > summary ${tid('flow-sub-phase')}`).textContent(), "the outline's own phase").toBe('completed');

  // The review is nested one level further, with its own phase, expandable in turn.
  await expect(page.locator(`${tid('flow-subthread')}[data-path="${nestedPath}"]`).first(), 'the nested review block').toBeVisible();
  expect(await nested.locator(`:scope > summary ${tid('flow-sub-phase')}`).textContent(), "the review's own phase").toBe('completed');
  await nested.locator(`:scope > ${tid('flow-sub-summary')}`).click();
  await expect(page.locator(`${tid('flow-thread')}[data-path="${nestedPath}"] > ${tid('flow-msg')}[data-sender="bot"]`), "the review's answer").toContainText(anyWith('Missing: a closing summary'));

  // A completed flow takes no more messages: the composer says so.
  await expect(page.locator(tid('composer-note')), 'the composer on a completed flow').toContainText(anyWith('completed'));
  expect(await page.locator(tid('send')).isDisabled(), 'send is disabled on a completed flow').toBeTruthy();
  // Only what works is offered (issue 43): a completed flow is shown completed, with no "Mark done".
  await expect(page.locator(tid('dialog-status')).first(), 'the completed flow\'s state').toHaveAttribute('data-status', 'completed');
  await expect(page.locator(tid('btn-complete')), 'no "Mark done" on a completed flow').toBeHidden();
  // The flow's own phase at the top of the view, the nested review below it.
  await page.locator(tid('transcript-scroll')).evaluate((el) => (el.scrollTop = 0));
  await takeScreenshot('15-flow-sub-threads', [tid('flow-phase'), `${tid('flow-subthread')}[data-path="${nestedPath}"]`]);

  // A reload reads the same thread back from the server.
  await page.reload();
  await expect(page.locator('body[data-ready="true"]'), 'the page ready again').toBeAttached();
  await expect(page.locator(tid('flow-view')).first(), 'the flow after a reload').toHaveAttribute('data-state', 'flowCompleted');
  expect(await page.locator(tid('flow-subthread')).count(), 'both sub-threads after a reload').toBe(2);
});

test('a flow answered from elsewhere is drawn live: its phase, its messages and its sub-threads', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await expect(page.locator(tid('ws-status')).first(), 'the WebSocket status').toHaveAttribute('data-state', 'open');
  await page.locator(tid('new-member')).selectOption('article_writer');
  await page.locator(tid('new-content')).fill('Write me an article');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('flow-view')).first(), 'the flow waiting for the user').toHaveAttribute('data-state', 'flowWaits');
  const dialog = await page.locator(tid('flow-view')).getAttribute('data-dialog');

  // Another client (the same user's script) answers the flow over REST: the open page has not
  // sent anything, so only the dialog's packets can bring the thread the flow leaves.
  const url = new URL(server.url);
  const said = await fetch(`${url.origin}/api/dialogs/${dialog}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${url.hash.slice(7)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'Tea, for beginners' }),
  });
  expect(said.status, `POST the answer: ${said.status} ${await said.clone().text()}`).toBe(200);
  await expect(page.locator(tid('flow-view')).first(), 'the completed flow, without a reload').toHaveAttribute('data-state', 'flowCompleted');
  await expect(page.locator(tid('flow-phase')).first(), 'the phase badge, live').toHaveAttribute('data-phase', 'article_writing');
  await expect(page.locator(`${tid('flow-thread')}[data-path=""] > ${tid('flow-msg')}[data-sender="bot"]`), 'the article, live').toContainText(anyWith('Tea for beginners. Tea matters because'));
  expect(await page.locator(tid('flow-subthread')).count(), 'both sub-threads, live').toBe(2);
  expect(await page.locator(tid('flow-live')).count(), 'the streamed reply gave way to the saved message').toBe(0);
});
