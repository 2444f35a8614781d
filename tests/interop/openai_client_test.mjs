#!/usr/bin/env node
// The official `openai` npm client against a real `parley serve` (docs/server.md,
// "OpenAI-compatible endpoint"): what an OpenAI client does — list models, ask for a whole answer,
// stream one with usage, go on with a dialog by its id, and read refusals as the SDK's own errors —
// works unchanged. ctest runs it (tests/interop/CMakeLists.txt); by hand:
//
//   PARLEY_BINARY=build/release/apps/parley/parley node tests/interop/openai_client_test.mjs
//
// The server serves a copy of team/ (the scripted model: "ok: <the user message>", and "delegate"
// ends in a question for the human) from a temporary folder, on a free port; the port and the
// token come from the line it prints. Exits non-zero when any test fails (node:test).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.PARLEY_BINARY;
if (!binary) throw new Error('interop: set PARLEY_BINARY to the parley binary (see the top of this file)');

let server;
let root;
let baseURL;
let token;
let client;

// Starts `parley serve` and resolves with the URL it prints once it listens.
function startServer() {
  root = mkdtempSync(join(tmpdir(), 'parley-interop-'));
  cpSync(join(here, 'team'), join(root, 'team'), { recursive: true });
  const args = ['serve', '--team', join(root, 'team', 'team.yaml'), '--data', join(root, 'data'),
    '--host', '127.0.0.1', '--port', '0'];
  // Offline whatever the environment says: no real model is asked.
  const env = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[key];
  server = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', (data) => {
      seen += data.toString();
      const found = seen.match(/parley: serving (http:\/\/[^/\s]+)\/#token=([0-9a-zA-Z]+)/);
      if (found) resolve({ url: found[1], token: found[2] });
    });
    server.on('exit', (code) => reject(new Error(`parley serve exited (${code}) before serving:\n${seen}`)));
  });
}

before(async () => {
  const started = await startServer();
  baseURL = started.url;
  token = started.token;
  // No retries: a refusal must reach the test as the error the SDK raises for it.
  client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: token, maxRetries: 0 });
});

after(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

// A dialog's transcript, read over Parley's own REST API.
async function transcript(dialogId) {
  const reply = await fetch(`${baseURL}/api/dialogs/${dialogId}/transcript`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(reply.status, 200);
  return (await reply.json()).messages;
}

test('models.list() names one model per member', async () => {
  const ids = [];
  for await (const model of client.models.list()) {
    ids.push(model.id);
    assert.equal(model.object, 'model');
    assert.equal(model.owned_by, 'parley');
  }
  assert.deepEqual(ids, ['parley/lead', 'parley/clerk']);
});

test('a whole answer is the member\'s saying, with usage and the dialog id', async () => {
  const { data, response } = await client.chat.completions
    .create({ model: 'parley/lead', messages: [{ role: 'user', content: 'hello there' }] })
    .withResponse();
  assert.equal(data.choices[0].message.content, 'ok: hello there');
  assert.equal(data.choices[0].finish_reason, 'stop');
  assert.match(data.id, /^chatcmpl-/);
  assert.ok(data.usage.prompt_tokens > 0 && data.usage.completion_tokens > 0);
  assert.equal(data.usage.total_tokens, data.usage.prompt_tokens + data.usage.completion_tokens);
  assert.match(response.headers.get('x-parley-dialog-id') ?? '', /^[0-9a-f]{16}$/);
});

// Long enough that its answer streams for a while (4 characters every 20 ms): it arrives in pieces.
const longQuestion = 'Tell me, at some length, '.repeat(6).trim();

test('a stream with include_usage: chunks add up to the answer, then a usage chunk', async () => {
  const { data: stream, response } = await client.chat.completions
    .create({
      model: 'parley/lead',
      messages: [{ role: 'user', content: longQuestion }],
      stream: true,
      stream_options: { include_usage: true },
    })
    .withResponse();
  const dialogId = response.headers.get('x-parley-dialog-id');
  assert.ok(dialogId);
  let text = '';
  let pieces = 0;
  let usage = null;
  let finish = null;
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    if (chunk.choices.length === 0) continue;
    if (chunk.choices[0].delta.content) {
      text += chunk.choices[0].delta.content;
      pieces += 1;
    }
    finish = chunk.choices[0].finish_reason ?? finish;
  }
  assert.equal(text, `ok: ${longQuestion}`);
  assert.ok(pieces > 1, `the answer came in ${pieces} piece(s)`);
  assert.equal(finish, 'stop');
  assert.ok(usage && usage.total_tokens > 0, 'a usage chunk');
  const messages = await transcript(dialogId);
  assert.equal(messages.at(-1).content, text);
});

test('the X-Parley-Dialog-Id header goes on with the same dialog', async () => {
  const first = await client.chat.completions
    .create({ model: 'parley/lead', messages: [{ role: 'user', content: 'first' }] })
    .withResponse();
  const dialogId = first.response.headers.get('x-parley-dialog-id');
  const goOn = new OpenAI({
    baseURL: `${baseURL}/v1`,
    apiKey: token,
    maxRetries: 0,
    defaultHeaders: { 'X-Parley-Dialog-Id': dialogId },
  });
  const second = await goOn.chat.completions
    .create({
      model: 'parley/lead',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: first.data.choices[0].message.content },
        { role: 'user', content: 'second' },
      ],
    })
    .withResponse();
  assert.equal(second.data.choices[0].message.content, 'ok: second');
  assert.equal(second.response.headers.get('x-parley-dialog-id'), dialogId);
  // A per-request header does the same.
  const third = await client.chat.completions.create(
    { model: 'parley/lead', messages: [{ role: 'user', content: 'third' }] },
    { headers: { 'X-Parley-Dialog-Id': dialogId } },
  );
  assert.equal(third.choices[0].message.content, 'ok: third');
  const messages = await transcript(dialogId);
  assert.deepEqual(
    messages.filter((m) => m.role === 'user').map((m) => m.content),
    ['first', 'second', 'third'],
  );
});

test('a question for the human ends the answer', async () => {
  const answer = await client.chat.completions.create({
    model: 'parley/lead',
    messages: [{ role: 'user', content: 'delegate' }],
  });
  assert.match(answer.choices[0].message.content, /^\[Parley asks: Which day\? — answer with POST \/api\/dialogs\/[0-9a-f]+\/answer, question id \S+\]$/);
});

test('an unknown model is the SDK\'s NotFoundError', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'parley/nobody', messages: [{ role: 'user', content: 'hi' }] }),
    (err) => err instanceof OpenAI.NotFoundError && err.status === 404 && err.code === 'model_not_found',
  );
});

test('a bad field is the SDK\'s BadRequestError naming it', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'parley/lead', messages: [{ role: 'robot', content: 'hi' }] }),
    (err) => err instanceof OpenAI.BadRequestError && err.status === 400 && err.param === 'messages[0].role',
  );
});

test('a wrong key is the SDK\'s AuthenticationError', async () => {
  const stranger = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'not-the-token', maxRetries: 0 });
  await assert.rejects(stranger.models.list(), (err) => err instanceof OpenAI.AuthenticationError);
});
