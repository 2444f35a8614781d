// Browser test of a flow's dialog (seed 004, issue 22 item 7): the article writer of
// examples/flows on the scripted model is started from the new-dialog form; its dialog shows the
// phase as a badge and waits for the user; the composer's answer goes to the flow, the page draws
// the thread it left — the outline's sub-thread as a closed block under its message, the review
// nested inside it, each with its own phase — and a completed flow's composer takes no more. A
// flow answered by another client is drawn live from the dialog's packets.
// run.mjs runs it.

export function registerFlowTests({ test, tid, gotoApp, visible, waitText, waitAttr, screenshot, assert }) {
  test('a flow shows its phase, answers in the composer, and nests its sub-threads as expandable blocks', async ({ server, page }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-member')).selectOption('article_writer');
    await page.locator(tid('new-content')).fill('Write me an article');
    await page.locator(tid('new-start')).click();

    // The flow ran to its first question and waits in its first phase.
    await waitAttr(page, tid('flow-phase'), 'data-phase', 'initial_phase', 'the phase badge');
    await waitAttr(page, tid('flow-view'), 'data-state', 'flowWaits', 'the flow waiting for the user');
    await waitText(page, `${tid('flow-msg')}[data-sender="bot"]`, 'What topic should the article cover', "the flow's question");
    assert((await page.locator(tid('flow-msg')).count()) === 2, 'the user message and the question');
    assert(!(await page.locator(tid('input')).isDisabled()), 'the composer takes the answer');
    await screenshot(page, '14-flow-waiting', [tid('flow-phase'), tid('flow-view')]);

    // The answer goes to the flow, which drafts and reviews the outline and writes the article.
    await page.locator(tid('input')).fill('Tea, for beginners');
    await page.locator(tid('send')).click();
    await waitAttr(page, tid('flow-view'), 'data-state', 'flowCompleted', 'the completed flow');
    await waitAttr(page, tid('flow-phase'), 'data-phase', 'article_writing', 'the phase badge after the answer');
    await waitText(page, `${tid('flow-thread')}[data-path=""] > ${tid('flow-msg')}[data-sender="bot"]`, 'Tea for beginners. Tea matters because', 'the article');

    // The outline's sub-thread sits under the message that holds it, closed until opened.
    const outline = page.locator(`${tid('flow-subthread')}[data-path="messages.3.meta._thread"]`);
    assert((await outline.count()) === 1, 'one sub-thread at messages.3.meta._thread');
    const holder = await page.evaluate(() => {
      const block = document.querySelector('[data-testid="flow-subthread"][data-path="messages.3.meta._thread"]');
      return block?.previousElementSibling?.dataset.sender ?? null;
    });
    assert(holder === 'bot', `the sub-thread follows its (bot) message: ${holder}`);
    assert((await outline.getAttribute('open')) === null, 'the sub-thread starts closed');
    const nestedPath = 'messages.3.meta._thread.messages.3.meta._thread';
    const nested = page.locator(`${tid('flow-subthread')}[data-path="${nestedPath}"]`);
    assert(!(await nested.isVisible()), 'the nested review is hidden inside the closed block');
    await outline.locator(`:scope > ${tid('flow-sub-summary')}`).click();
    await waitText(page, `${tid('flow-thread')}[data-path="messages.3.meta._thread"] > ${tid('flow-msg')}`, 'Draft an outline for an article', "the outline's first message");
    assert((await outline.locator(`:scope > summary ${tid('flow-sub-phase')}`).textContent()) === 'completed', "the outline's own phase");

    // The review is nested one level further, with its own phase, expandable in turn.
    await visible(page, `${tid('flow-subthread')}[data-path="${nestedPath}"]`, 'the nested review block');
    assert((await nested.locator(`:scope > summary ${tid('flow-sub-phase')}`).textContent()) === 'completed', "the review's own phase");
    await nested.locator(`:scope > ${tid('flow-sub-summary')}`).click();
    await waitText(page, `${tid('flow-thread')}[data-path="${nestedPath}"] > ${tid('flow-msg')}[data-sender="bot"]`, 'Missing: a closing summary', "the review's answer");

    // A completed flow takes no more messages: the composer says so.
    await waitText(page, tid('composer-note'), 'completed', 'the composer on a completed flow');
    assert(await page.locator(tid('send')).isDisabled(), 'send is disabled on a completed flow');
    await screenshot(page, '15-flow-sub-threads', [tid('flow-phase'), `${tid('flow-subthread')}[data-path="${nestedPath}"]`]);

    // A reload reads the same thread back from the server.
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
    await waitAttr(page, tid('flow-view'), 'data-state', 'flowCompleted', 'the flow after a reload');
    assert((await page.locator(tid('flow-subthread')).count()) === 2, 'both sub-threads after a reload');
  }, { team: 'examples/flows' });

  test('a flow answered from elsewhere is drawn live: its phase, its messages and its sub-threads', async ({ server, page }) => {
    await gotoApp(page, server.url);
    await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket status');
    await page.locator(tid('new-member')).selectOption('article_writer');
    await page.locator(tid('new-content')).fill('Write me an article');
    await page.locator(tid('new-start')).click();
    await waitAttr(page, tid('flow-view'), 'data-state', 'flowWaits', 'the flow waiting for the user');
    const dialog = await page.locator(tid('flow-view')).getAttribute('data-dialog');

    // Another client (the same user's script) answers the flow over REST: the open page has not
    // sent anything, so only the dialog's packets can bring the thread the flow leaves.
    const url = new URL(server.url);
    const said = await fetch(`${url.origin}/api/dialogs/${dialog}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${url.hash.slice(7)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Tea, for beginners' }),
    });
    assert(said.status === 200, `POST the answer: ${said.status} ${await said.clone().text()}`);
    await waitAttr(page, tid('flow-view'), 'data-state', 'flowCompleted', 'the completed flow, without a reload');
    await waitAttr(page, tid('flow-phase'), 'data-phase', 'article_writing', 'the phase badge, live');
    await waitText(page, `${tid('flow-thread')}[data-path=""] > ${tid('flow-msg')}[data-sender="bot"]`, 'Tea for beginners. Tea matters because', 'the article, live');
    assert((await page.locator(tid('flow-subthread')).count()) === 2, 'both sub-threads, live');
    assert((await page.locator(tid('flow-live')).count()) === 0, 'the streamed reply gave way to the saved message');
  }, { team: 'examples/flows' });
}
