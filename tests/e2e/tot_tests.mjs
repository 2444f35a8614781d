// Browser test of a Tree of Thoughts run in the web UI (issue 21, docs/tot.md): a small planning
// run on the scripted model (tot_team/script.yaml speaks seed 003's protocol) is started over
// REST; its root, opened from the dialog list, shows the thought tree — each thought with its
// score, the pruned one struck through, the kept ones, the best path — and the final solution,
// while the agent calls are the root's subdialogs in the dialog tree. run.mjs runs it.

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
      await page.locator(`${tid('dialog-item')}[data-id="${rootDialog}"]`).click();
      await waitAttr(page, tid('tot-view'), 'data-task', taskId, 'the thought tree of the run');
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
}
