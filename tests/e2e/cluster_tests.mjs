// Browser test of a takeover between `parley serve` nodes on one PostgreSQL (issue 38 item 5;
// docs/scale-out.md): nodes A and B share a fresh schema of the test cluster ctest starts
// (scripts/pg_test_cluster.sh, the `postgres` fixture, whose URL file PARLEY_TEST_PG_URL_FILE
// names). A root dialog is made on B, so B holds its tree's lease and drives it; the page on A
// shows it; B is killed (SIGKILL) in the middle of its model rounds. A takes the tree over and
// drives it to its end, and the page — never reloaded — shows it going on live and finishing,
// its whole transcript once. The lease is A's meanwhile, with a higher epoch.
// Run by ctest as e2e.cluster (run.mjs --project cluster); fixtures.mjs starts A, the test B.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { anyWith, expect, gotoApp, test as base, tid } from './fixtures.mjs';

const TEAM = 'tests/e2e/takeover_team';
const TOKEN = 'takeover-e2e-token';
const FINAL = 'All four steps are read.';

/** Runs SQL with psql (Debian's client) on `url`; the rows, each a list of its columns as text. */
function psql(url, sql) {
  const run = spawnSync('psql', [url, '-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    timeout: 15000,
  });
  if (run.error || run.status !== 0) throw new Error(`psql failed on '${sql}': ${run.error ?? run.stderr}`);
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** A new, empty schema in the test cluster; the URL that makes it the only one a node sees (as
 *  tests/support/pg_test_schema.hpp does for the C++ tests). */
function freshSchemaUrl() {
  const file = process.env.PARLEY_TEST_PG_URL_FILE;
  if (!file) throw new Error('PARLEY_TEST_PG_URL_FILE is not set: run this test through ctest (ctest -R e2e.cluster), which starts the PostgreSQL test cluster');
  const url = readFileSync(file, 'utf8').split('\n')[0].trim();
  if (!url) throw new Error(`no PostgreSQL test cluster URL in ${file}`);
  // pg_trgm lives in `public`, made once under the lock Parley's migrations take (see the header).
  psql(url, 'SELECT pg_advisory_lock(7235018804721537); CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; SELECT pg_advisory_unlock(7235018804721537)');
  const schema = `e2e${process.pid}_${Date.now()}`;
  psql(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  return `${url}${url.includes('?') ? '&' : '?'}options=-csearch_path%3D${schema}`;
}

/** A REST call to one node, with the token. */
async function api(server, method, path, body) {
  const res = await fetch(`${new URL(server.url).origin}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The dialog's messages as `node` reads them from the store. */
async function messagesOn(server, id) {
  const reply = await api(server, 'GET', `/dialogs/${id}/transcript?limit=500`);
  expect(reply.status, `GET transcript of ${id}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body.messages;
}

// Both nodes on one fresh schema: A is the fixtures' server (the page's), B is started by the test.
const test = base.extend({
  pgUrl: async ({}, use) => {
    await use(freshSchemaUrl());
  },
  serverOptions: async ({ pgUrl }, use) => {
    await use({ team: TEAM, token: TOKEN, args: ['--store', pgUrl] });
  },
});

test('a node killed mid-dialog: the page on the node that takes the tree over shows it going on live to its end', async ({ server: a, startServer, page, pgUrl }) => {
  const b = await startServer({ team: TEAM, token: TOKEN, args: ['--store', pgUrl] });
  // The lease row of the tree (owner host:pid:random, epoch), or null when nobody holds it.
  const leaseOf = (id) => {
    const row = psql(pgUrl, `SELECT owner, epoch FROM tree_leases WHERE root_id = '${id}'`)[0];
    return row ? { pid: Number(row[0].split(':').at(-2)), epoch: Number(row[1]) } : null;
  };

  // A root made on B: B claims its tree and drives it, a model round about every second.
  const created = await api(b, 'POST', '/dialogs', { content: 'Read the steps, please.' });
  expect(created.status, `POST /api/dialogs on B: ${JSON.stringify(created.body)}`).toBe(201);
  const id = created.body.dialog.id;

  // The page on A lists it (from the shared store) and opens it.
  await gotoApp(page, a.url);
  await expect(page.locator(tid('ws-status')).first(), 'the WebSocket to A').toHaveAttribute('data-state', 'open');
  await page.locator(`${tid('dialog-item')}[data-id="${id}"]`).click();
  await expect(page.locator(tid('transcript')).first(), 'the open dialog').toHaveAttribute('data-dialog', id);
  await expect(page.locator(tid('msg-user')), 'the user message').toContainText(anyWith('Read the steps, please.'));

  // Mid-way: B read the second step and is in its next round, three rounds from the end.
  await expect
    .poll(async () => (await messagesOn(b, id)).some((m) => m.role === 'tool' && (m.content ?? '').includes('step 2 of 4')), {
      message: 'B reads the second step',
      intervals: [100],
      timeout: 20000,
    })
    .toBe(true);
  const held = leaseOf(id);
  expect(held?.pid, `the tree's lease is B's (pid ${b.proc.pid}): ${JSON.stringify(held)}`).toBe(b.proc.pid);

  // The page as it is at the kill; a reload or another navigation would lose the mark.
  await page.evaluate(() => (window.__beforeKill = true));
  const sayingsAtKill = await page.locator(tid('saying')).allTextContents();
  const exited = new Promise((resolve) => b.proc.once('exit', resolve));
  b.proc.kill('SIGKILL');
  await exited;
  const atKill = await messagesOn(a, id);
  expect(atKill.some((m) => (m.content ?? '').includes(FINAL)), 'the dialog was not finished when B was killed').toBe(false);

  // A claims the expired lease (a higher epoch) and drives the tree on.
  let takenOver = null;
  await expect
    .poll(
      () => {
        const lease = leaseOf(id);
        if (lease?.pid === a.proc.pid) takenOver = lease;
        return takenOver?.pid;
      },
      { message: `A (pid ${a.proc.pid}) holds the tree's lease, B's (pid ${b.proc.pid}) expired`, intervals: [100], timeout: 15000 },
    )
    .toBe(a.proc.pid);
  expect(takenOver.epoch, 'A claimed the tree with a higher epoch than B\'s').toBeGreaterThan(held.epoch);

  // The page shows what A drives, live: a round streaming, then the final answer and the dialog at rest.
  await expect(page.locator(`${tid('transcript')} .streaming`).first(), 'a round of A\'s streaming on the page').toBeVisible();
  await expect(page.locator(tid('saying')), 'the final answer, streamed by A').toContainText(anyWith(FINAL), { timeout: 30000 });
  await expect(page.locator(tid('dialog-status')).first(), 'the dialog at rest').toHaveAttribute('data-status', 'idle');
  const sayings = await page.locator(tid('saying')).allTextContents();
  expect(sayings.length, `new sayings after the kill (${JSON.stringify(sayingsAtKill)} → ${JSON.stringify(sayings)})`).toBeGreaterThan(sayingsAtKill.length);
  expect(await page.evaluate(() => window.__beforeKill), 'the page was never reloaded').toBe(true);

  // The whole dialog, each step once: what B wrote before it died, and what A wrote after.
  const finalMessages = await messagesOn(a, id);
  expect(finalMessages.at(-1)?.content ?? '', 'the last message in the store').toContain(FINAL);
  for (let step = 1; step <= 4; step++) {
    await expect(page.locator(tid('tool-result')).filter({ hasText: `step ${step} of 4` }), `the result of step ${step}, once`).toHaveCount(1);
  }
  expect(sayings.filter((s) => s.includes(FINAL)).length, 'the final answer, once').toBe(1);
  // At rest, A gives the tree back; B's lease never comes back.
  const atRest = leaseOf(id);
  expect(atRest === null || atRest.pid === a.proc.pid, `no lease of B's after the takeover: ${JSON.stringify(atRest)}`).toBe(true);
});
