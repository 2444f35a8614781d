// Browser tests of a Tree of Thoughts run in the web UI (issue 21, docs/tot.md): a small planning
// run on the scripted model (tot_team/script.yaml speaks seed 003's protocol). Its root, opened
// from the dialog list, shows the thought tree — each thought with its score, the pruned one
// struck through, the kept ones, the best path — and the final solution, while the agent calls are
// the root's subdialogs in the dialog tree. The tree grows live from the root's tot_progress_evt
// packets: the page asks GET /api/tot once. A run is also started from the page's own form, whose
// bad values are refused with the server's message naming the field. Fixtures: fixtures.mjs.
import { VIEWPORTS, anyWith, expect, gotoApp, test, tid } from './fixtures.mjs';

// Each test serves the ToT team (tot_team/: the scripted model speaking seed 003's protocol).
test.use({ serverOptions: { team: 'tests/e2e/tot_team' } });

for (const [label, viewport] of VIEWPORTS) {
  test.describe(() => {
    test.use({ viewport });
    test(`a Tree of Thoughts run is drawn under its root: scores, pruned and kept, the final solution (${label})`, async ({ server, page, takeScreenshot }) => {
      await gotoApp(page, server.url);
      await expect(page.locator(tid('ws-status')).first(), 'the WebSocket status').toHaveAttribute('data-state', 'open');
      const url = new URL(server.url);
      const started = await fetch(`${url.origin}/api/tot`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${url.hash.slice(7)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ problem: 'Where do we hold the launch?', taskType: 'planning', strategy: 'BFS', depth: 1, breadth: 2 }),
      });
      expect(started.status, `POST /api/tot: ${started.status} ${await started.clone().text()}`).toBe(202);
      const { taskId, rootDialog } = await started.json();

      // The run's root arrives in the list live and opens with its tree above the transcript.
      let runFetches = 0;
      page.on('response', (response) => {
        if (response.url().includes('/api/tot?')) runFetches++;
      });
      await page.locator(`${tid('dialog-item')}[data-id="${rootDialog}"]`).click();
      await expect(page.locator(tid('tot-view')).first(), 'the thought tree of the run').toHaveAttribute('data-task', taskId);
      // The page fetches the run twice as it opens the root: once, and again for the resync its
      // subscription gets. From then on (the decomposer is still thinking) only packets come.
      await expect.poll(() => runFetches, { message: 'the run fetched as the root opened', intervals: [25], timeout: 5000 }).toBeGreaterThanOrEqual(2);
      expect(runFetches, `the run was fetched as the root opened (${runFetches} fetches)`).toBe(2);
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
      // Live: the scored thoughts show while the synthesizer is still writing. Both at one moment, which
      // may be short: a predicate the page checks on every frame, not two expects.
      await page
        .waitForFunction(
          () =>
            document.querySelector('[data-testid="tot-view"]')?.dataset.status === 'running' &&
            document.querySelectorAll('[data-testid="tot-score"]').length === 3,
          undefined,
          { timeout: 20000 },
        )
        .catch(() => {
          throw new Error('the scored thoughts never showed while the run was searching');
        });
      await expect(page.locator(tid('tot-status')), 'the running status').toContainText(anyWith('searching'));
      await expect(page.locator(tid('tot-view')).first(), 'the finished run').toHaveAttribute('data-status', 'solved');
      // Live: the tree grew from the packets after the last fetch, and was not fetched again.
      const counts = await page.evaluate(() => window.__totNodeCounts);
      expect(counts[0] < 4 && counts[counts.length - 1] === 4, `the tree grew live: ${JSON.stringify(counts)}`).toBeTruthy();
      expect(runFetches, `the page followed the run's packets without fetching it again (${runFetches} fetches)`).toBe(2);
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
      expect(Object.keys(drawn).length, `the problem and its three thoughts: ${seen}`).toBe(4);
      const problem = drawn['Where do we hold the launch?'];
      expect(problem?.depth === 0 && problem.best && problem.score === '', `the problem is the tree's root, unscored, on the best path: ${seen}`).toBeTruthy();
      const hall = drawn['Book the town hall'];
      const tent = drawn['Rent a tent in the park'];
      const roof = drawn['Hold it on the roof'];
      expect(hall?.depth === 1 && tent?.depth === 1 && roof?.depth === 1, `the thoughts hang under the problem: ${seen}`).toBeTruthy();
      expect(hall.score === '8.5' && tent.score === '6.5' && roof.score === '2.0', `each thought shows its score: ${seen}`).toBeTruthy();
      expect(roof.status === 'pruned' && roof.struck === 'line-through', `the roof, under the threshold, is pruned and struck through: ${seen}`).toBeTruthy();
      expect(hall.status !== 'pruned' && tent.status !== 'pruned' && hall.struck === 'none', `the two best are kept: ${seen}`).toBeTruthy();
      expect(hall.best && !tent.best && !roof.best, `the town hall is the best path: ${seen}`).toBeTruthy();
      await expect(page.locator(tid('tot-answer')), 'the final solution').toContainText(anyWith('Book the town hall'));
      expect(await page.locator(tid('tot-final')).getAttribute('data-valid'), 'the solution is verified').toBe('true');

      // Each agent call is a subdialog of the root, in the dialog tree (folded on a phone until opened).
      if (viewport.width < 600) await page.locator(tid('tree-summary')).click();
      for (const member of ['tot-decomposer', 'tot-generator', 'tot-evaluator', 'tot-synthesizer']) {
        await expect(page.locator(`${tid('tree-node')}[data-member="${member}"]`).first(), `the ${member} call in the dialog tree`).toBeVisible();
      }
      await page.locator(tid('tot-view')).scrollIntoViewIfNeeded();
      await takeScreenshot(`13-tot-${viewport.width}`, [tid('tot-view'), tid('tot-final')]);
    });
  });
}

test.describe(() => {
  test.use({ viewport: VIEWPORTS[0][1], consoleAllows: /status of 400/ });
  test('a run started from the page\'s form: bad values are refused naming the field, good ones open the run', async ({ server, page, takeScreenshot }) => {
    await gotoApp(page, server.url);
    await expect(page.locator(tid('ws-status')).first(), 'the WebSocket status').toHaveAttribute('data-state', 'open');
    await page.locator(`${tid('tot-start')} summary`).click();
    await page.locator(tid('tot-problem')).fill('Where do we hold the launch?');
    await page.locator(tid('tot-task-type')).selectOption('planning');
    await page.locator(tid('tot-strategy')).selectOption('BFS');
    // Out of range, then not a number: each refused with the server's own words, nothing started.
    await page.locator(tid('tot-depth')).fill('11');
    await page.locator(tid('tot-submit')).click();
    await expect(page.locator(tid('tot-form-error')), 'the depth refusal').toContainText(anyWith('depth: 11 is outside 1–10'));
    await page.locator(tid('tot-depth')).fill('1');
    await page.locator(tid('tot-breadth')).fill('wide');
    await page.locator(tid('tot-submit')).click();
    await expect(page.locator(tid('tot-form-error')), 'the breadth refusal').toContainText(anyWith('breadth: expected a number, got string'));
    await page.locator(tid('tot-breadth')).fill('2');
    await page.locator(tid('tot-threshold')).fill('12');
    await page.locator(tid('tot-submit')).click();
    await expect(page.locator(tid('tot-form-error')), 'the threshold refusal').toContainText(anyWith('threshold: must be a number 0–10'));
    const url = new URL(server.url);
    const listed = await fetch(`${url.origin}/api/dialogs`, { headers: { Authorization: `Bearer ${url.hash.slice(7)}` } });
    expect((await listed.json()).total, 'a refused form started nothing').toBe(0);

    // Good values: the run starts, its root opens with the tree, and the form forgets the error.
    await page.locator(tid('tot-threshold')).fill('');
    await page.locator(tid('tot-submit')).click();
    await expect(page.locator(tid('tot-form-error')), 'the form error, gone').toBeHidden();
    await expect(page.locator(tid('tot-view')).first(), 'the run\'s thought tree').toBeVisible();
    await expect(page.locator(tid('tot-view')).first(), 'the finished run').toHaveAttribute('data-status', 'solved');
    await expect(page.locator(tid('tot-answer')), 'the final solution').toContainText(anyWith('Book the town hall'));
    await page.locator(tid('tot-form')).scrollIntoViewIfNeeded();
    await takeScreenshot('14-tot-form', [tid('tot-form')]);
  });
});
