// Browser tests of a Tree of Thoughts run in the web UI (issue 21, docs/tot.md): a small planning
// run on the scripted model (tot_team/script.yaml speaks seed 003's protocol). Its root, opened
// from the dialog list, shows the thought tree — each thought with its score, the pruned one
// struck through, the kept ones, the best path — and the final solution, while the agent calls are
// the root's subdialogs in the dialog tree. The tree grows live from the root's tot_progress_evt
// packets: the page asks GET /api/tot once. A run is also started from the page's own form, whose
// bad values are refused with the server's message naming the field. run.mjs runs them.

export function registerTotTests({ test, tid, gotoApp, visible, waitText, waitAttr, screenshot, assert, viewports }) {
  for (const [label, viewport] of viewports) {
    test(`a Tree of Thoughts run is drawn under its root: scores, pruned and kept, the final solution (${label})`, async ({ server, page }) => {
      await gotoApp(page, server.url);
      await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket status');
      const url = new URL(server.url);
      const started = await fetch(`${url.origin}/api/tot`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${url.hash.slice(7)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ problem: 'Where do we hold the launch?', taskType: 'planning', strategy: 'BFS', depth: 1, breadth: 2 }),
      });
      assert(started.status === 202, `POST /api/tot: ${started.status} ${await started.clone().text()}`);
      const { taskId, rootDialog } = await started.json();

      // The run's root arrives in the list live and opens with its tree above the transcript.
      let runFetches = 0;
      page.on('response', (response) => {
        if (response.url().includes('/api/tot?')) runFetches++;
      });
      await page.locator(`${tid('dialog-item')}[data-id="${rootDialog}"]`).click();
      await waitAttr(page, tid('tot-view'), 'data-task', taskId, 'the thought tree of the run');
      // The page fetches the run twice as it opens the root: once, and again for the resync its
      // subscription gets. From then on (the decomposer is still thinking) only packets come.
      for (let i = 0; runFetches < 2 && i < 200; i++) await page.waitForTimeout(25);
      assert(runFetches === 2, `the run was fetched as the root opened (${runFetches} fetches)`);
      // Every number of thoughts the tree is drawn with, from the last fetch on.
      await page.evaluate(() => {
        const counts = (window.__totNodeCounts = []);
        const note = () => {
          const n = document.querySelectorAll('[data-testid="tot-node"]').length;
          if (counts[counts.length - 1] !== n) counts.push(n);
        };
        note();
        new MutationObserver(note).observe(document.querySelector('[data-testid="tot-view"]'), { childList: true, subtree: true });
      });
      // Live: the scored thoughts show while the synthesizer is still writing.
      await page
        .waitForFunction(
          () =>
            document.querySelector('[data-testid="tot-view"]')?.dataset.status === 'running' &&
            document.querySelectorAll('[data-testid="tot-score"]').length === 3,
          undefined,
          { timeout: 20000 },
        )
        .catch(() => assert(false, 'the scored thoughts never showed while the run was searching'));
      await waitText(page, tid('tot-status'), 'searching', 'the running status');
      await waitAttr(page, tid('tot-view'), 'data-status', 'solved', 'the finished run');
      // Live: the tree grew from the packets after the last fetch, and was not fetched again.
      const counts = await page.evaluate(() => window.__totNodeCounts);
      assert(counts[0] < 4 && counts[counts.length - 1] === 4, `the tree grew live: ${JSON.stringify(counts)}`);
      assert(runFetches === 2, `the page followed the run's packets without fetching it again (${runFetches} fetches)`);
      // Each thought as drawn: its own row's content, score and marks.
      const drawn = await page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('[data-testid="tot-node"]')].map((li) => {
            const row = li.querySelector(':scope > .tot-row');
            const content = row.querySelector('[data-testid="tot-content"]');
            return [
              content.textContent,
              {
                score: row.querySelector('.tot-score').textContent,
                status: li.dataset.status,
                best: li.dataset.best === 'true',
                struck: getComputedStyle(content).textDecorationLine,
                depth: li.parentElement.closest('[data-testid="tot-node"]') ? 1 : 0,
              },
            ];
          }),
        ),
      );
      const seen = JSON.stringify(drawn);
      assert(Object.keys(drawn).length === 4, `the problem and its three thoughts: ${seen}`);
      const problem = drawn['Where do we hold the launch?'];
      assert(problem?.depth === 0 && problem.best && problem.score === '', `the problem is the tree's root, unscored, on the best path: ${seen}`);
      const hall = drawn['Book the town hall'];
      const tent = drawn['Rent a tent in the park'];
      const roof = drawn['Hold it on the roof'];
      assert(hall?.depth === 1 && tent?.depth === 1 && roof?.depth === 1, `the thoughts hang under the problem: ${seen}`);
      assert(hall.score === '8.5' && tent.score === '6.5' && roof.score === '2.0', `each thought shows its score: ${seen}`);
      assert(roof.status === 'pruned' && roof.struck === 'line-through', `the roof, under the threshold, is pruned and struck through: ${seen}`);
      assert(hall.status !== 'pruned' && tent.status !== 'pruned' && hall.struck === 'none', `the two best are kept: ${seen}`);
      assert(hall.best && !tent.best && !roof.best, `the town hall is the best path: ${seen}`);
      await waitText(page, tid('tot-answer'), 'Book the town hall', 'the final solution');
      assert((await page.locator(tid('tot-final')).getAttribute('data-valid')) === 'true', 'the solution is verified');

      // Each agent call is a subdialog of the root, in the dialog tree.
      for (const member of ['tot-decomposer', 'tot-generator', 'tot-evaluator', 'tot-synthesizer']) {
        await visible(page, `${tid('tree-node')}[data-member="${member}"]`, `the ${member} call in the dialog tree`);
      }
      await page.locator(tid('tot-view')).scrollIntoViewIfNeeded();
      await screenshot(page, `13-tot-${viewport.width}`, [tid('tot-view'), tid('tot-final')]);
    }, { viewport, team: 'tests/e2e/tot_team' });
  }

  test('a run started from the page\'s form: bad values are refused naming the field, good ones open the run', async ({ server, page }) => {
    await gotoApp(page, server.url);
    await waitAttr(page, tid('ws-status'), 'data-state', 'open', 'the WebSocket status');
    await page.locator(`${tid('tot-start')} summary`).click();
    await page.locator(tid('tot-problem')).fill('Where do we hold the launch?');
    await page.locator(tid('tot-task-type')).selectOption('planning');
    await page.locator(tid('tot-strategy')).selectOption('BFS');
    // Out of range, then not a number: each refused with the server's own words, nothing started.
    await page.locator(tid('tot-depth')).fill('11');
    await page.locator(tid('tot-submit')).click();
    await waitText(page, tid('tot-form-error'), 'depth: 11 is outside 1–10', 'the depth refusal');
    await page.locator(tid('tot-depth')).fill('1');
    await page.locator(tid('tot-breadth')).fill('wide');
    await page.locator(tid('tot-submit')).click();
    await waitText(page, tid('tot-form-error'), 'breadth: expected a number, got string', 'the breadth refusal');
    await page.locator(tid('tot-breadth')).fill('2');
    await page.locator(tid('tot-threshold')).fill('12');
    await page.locator(tid('tot-submit')).click();
    await waitText(page, tid('tot-form-error'), 'threshold: must be a number 0–10', 'the threshold refusal');
    const url = new URL(server.url);
    const listed = await fetch(`${url.origin}/api/dialogs`, { headers: { Authorization: `Bearer ${url.hash.slice(7)}` } });
    assert((await listed.json()).total === 0, 'a refused form started nothing');

    // Good values: the run starts, its root opens with the tree, and the form forgets the error.
    await page.locator(tid('tot-threshold')).fill('');
    await page.locator(tid('tot-submit')).click();
    await page.locator(tid('tot-form-error')).waitFor({ state: 'hidden' });
    await visible(page, tid('tot-view'), 'the run\'s thought tree');
    await waitAttr(page, tid('tot-view'), 'data-status', 'solved', 'the finished run');
    await waitText(page, tid('tot-answer'), 'Book the town hall', 'the final solution');
    await page.locator(tid('tot-form')).scrollIntoViewIfNeeded();
    await screenshot(page, '14-tot-form', [tid('tot-form')]);
  }, { viewport: viewports[0][1], team: 'tests/e2e/tot_team', consoleAllows: [/status of 400/] });
}
