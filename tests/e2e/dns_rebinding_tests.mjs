// Browser test of a DNS-rebound name (the server's Host check): Chromium resolves rebound.test to
// the server's 127.0.0.1, so a page of http://rebound.test:PORT is "same-origin" to it; the server
// must refuse the page, the API and the WebSocket under that name. In a file of its own because
// the flag that makes Chromium resolve the name is a launch option (a worker of its own).
// Fixtures: fixtures.mjs.
import { chromiumWith, dialogsOf, expect, test } from './fixtures.mjs';

test.use({
  launchOptions: chromiumWith('--host-resolver-rules=MAP rebound.test 127.0.0.1'),
  // The console is the rebound page's: the refused page, requests and WebSocket are the point.
  consoleAllows: /./,
});
test('a DNS-rebound name gets neither the page nor the API', async ({ server, page }) => {
  // Chromium resolves rebound.test to 127.0.0.1, as an attacker's DNS would after the page loaded:
  // the page's origin is then http://rebound.test:PORT and our server is "same-origin" to it.
  const port = new URL(server.url).port;
  const token = new URL(server.url).hash.slice(7);
  const response = await page.goto(`http://rebound.test:${port}/`);
  expect(response.status(), `the page under a foreign name is refused (${response.status()})`).toBe(403);
  const shown = await response.text();
  expect(shown.includes('bad_host') && !shown.includes(token), `the refusal names the Host and not the secret: ${shown}`).toBeTruthy();
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
  expect(seen.post === 403 && seen.postBody.includes('bad_host'), `the POST is refused by its Host (${what})`).toBeTruthy();
  expect(seen.read === 403 && !seen.readBody.includes('"dialogs"'), `the list cannot be read (${what})`).toBeTruthy();
  expect(seen.opened, `the WebSocket is refused (${what})`).toBe('closed 1006');
  const listed = await dialogsOf(server);
  expect(listed.total, `no dialog was created: ${JSON.stringify(listed)}`).toBe(0);
});
