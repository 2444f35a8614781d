#!/usr/bin/env node
// The official MCP SDK's Client against Parley as an MCP server (docs/mcp.md, "Parley as an MCP
// server"): over streamable HTTP (`parley serve --mcp`) and over stdio (`parley mcp`), what an MCP
// host does — list the tools, call a member and get its answer and dialog id, go on with the
// dialog, meet a question for the human and answer it, read a dialog and a question as resources,
// follow progress, come back for an answer that outlasted the call, and read a refusal that names
// the argument — works unchanged. ctest runs it (tests/CMakeLists.txt); by hand:
//
//   PARLEY_BINARY=build/release/apps/parley/parley node tests/mcp/parley_server_test.mjs
//
// Each server serves a copy of parley_team/ (the scripted model: "ok: <the user message>",
// "delegate" ends in the clerk's question, "slow" streams a long answer for a few seconds) from a
// temporary folder of its own. Exits non-zero when any test fails (node:test).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.PARLEY_BINARY;
if (!binary) throw new Error('mcp: set PARLEY_BINARY to the parley binary (see the top of this file)');

const roots = [];
// A fresh copy of the team in a temporary folder: its data directory is this server's alone.
function teamCopy() {
  const root = mkdtempSync(join(tmpdir(), 'parley-mcp-'));
  roots.push(root);
  cpSync(join(here, 'parley_team'), join(root, 'team'), { recursive: true });
  return { team: join(root, 'team', 'team.yaml'), data: join(root, 'data') };
}

// Offline whatever the environment says: no real model is asked.
function offlineEnv() {
  const env = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY']) delete env[key];
  return env;
}

// `parley serve --mcp` on a free port; resolves with its base URL and token once it serves.
function startServer(extraArgs = []) {
  const { team, data } = teamCopy();
  const args = ['serve', '--mcp', '--team', team, '--data', data, '--host', '127.0.0.1', '--port', '0', ...extraArgs];
  const server = spawn(binary, args, { env: offlineEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', (chunk) => {
      seen += chunk.toString();
      const found = seen.match(/parley: serving (http:\/\/[^/\s]+)\/#token=([0-9a-zA-Z]+)/);
      if (found) resolve({ server, url: found[1], token: found[2] });
    });
    server.on('exit', (code) => reject(new Error(`parley serve exited (${code}) before serving:\n${seen}`)));
  });
}

async function stopServer(server) {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.on('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

async function httpClient(url, token) {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'parley-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function stdioClient(extraArgs = []) {
  const { team, data } = teamCopy();
  const transport = new StdioClientTransport({
    command: binary,
    args: ['mcp', '--team', team, '--data', data, ...extraArgs],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'parley-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

// A call's text, structured content and error flag.
async function call(client, name, args, options = {}) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  return { text: result.content.map((part) => part.text).join(''), data: result.structuredContent, isError: result.isError };
}

// The tests every transport passes; `connect` gives a connected { client }.
function sharedTests(connect) {
  let client;
  before(async () => {
    ({ client } = await connect());
  });

  test('tools/list names one tool per member, and the tools of questions and waiting', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['ask_lead', 'ask_clerk', 'answer_question', 'wait_for_answer'],
    );
    const lead = tools[0];
    assert.match(lead.description, /You lead\./);
    assert.deepEqual(lead.inputSchema.required, ['message']);
    assert.ok(lead.outputSchema, 'an output schema (2025-06-18 and later)');
    assert.match(tools[1].description, /booking trips/);
  });

  test('a member answers, naming the dialog, and the dialog goes on with dialog_id', async () => {
    const first = await call(client, 'ask_lead', { message: 'hello there' });
    assert.equal(first.isError, false);
    assert.equal(first.data.status, 'answered');
    assert.equal(first.data.answer, 'ok: hello there');
    assert.match(first.data.dialog_id, /^[0-9a-f]{16}$/);
    assert.ok(first.text.startsWith('ok: hello there'), first.text);
    assert.ok(first.text.includes(first.data.dialog_id), 'the dialog id is in the text for a model caller');

    const second = await call(client, 'ask_lead', { message: 'and then?', dialog_id: first.data.dialog_id });
    assert.equal(second.data.status, 'answered');
    assert.equal(second.data.answer, 'ok: and then?');
    assert.equal(second.data.dialog_id, first.data.dialog_id);

    const { contents } = await client.readResource({ uri: `parley://dialogs/${first.data.dialog_id}` });
    assert.equal(contents[0].mimeType, 'text/markdown');
    for (const said of ['hello there', 'ok: hello there', 'and then?', 'ok: and then?']) {
      assert.ok(contents[0].text.includes(said), `the transcript has '${said}':\n${contents[0].text}`);
    }
  });

  test('a question for the human ends the call, and answer_question gets the final answer', async () => {
    const asked = await call(client, 'ask_lead', { message: 'delegate' });
    assert.equal(asked.data.status, 'waiting_for_human', asked.text);
    assert.equal(asked.data.questions.length, 1);
    const question = asked.data.questions[0];
    assert.equal(question.member_id, 'clerk');
    assert.match(question.question, /^Which day\?/);
    assert.ok(asked.text.includes(question.question_id), asked.text);

    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    assert.ok(uris.includes(`parley://questions/${question.question_id}`), uris.join(' '));
    assert.ok(uris.includes(`parley://dialogs/${asked.data.dialog_id}`), uris.join(' '));
    const read = await client.readResource({ uri: `parley://questions/${question.question_id}` });
    assert.match(read.contents[0].text, /Which day\?/);

    const answered = await call(client, 'answer_question', { question_id: question.question_id, answer: 'Friday' });
    assert.equal(answered.data.status, 'answered', answered.text);
    assert.equal(answered.data.dialog_id, asked.data.dialog_id);
    assert.match(answered.data.answer, /^Trip booked: .*booked for Friday/s);
  });

  test('progress notifications follow the tree while it works', async () => {
    const seen = [];
    const slow = await call(client, 'ask_lead', { message: 'slow' }, { onprogress: (progress) => seen.push(progress) });
    assert.equal(slow.data.status, 'answered');
    assert.match(slow.data.answer, /^Slowly, step by step/);
    assert.ok(seen.length >= 1, 'at least one progress notification');
    assert.ok(seen[0].message.includes(slow.data.dialog_id), `the first names the dialog: ${seen[0].message}`);
    for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i].progress > seen[i - 1].progress, 'progress grows');
  });

  test('a bad argument is a tool error naming it; an unknown tool is a protocol error', async () => {
    const wrongType = await call(client, 'ask_lead', { message: 5 });
    assert.equal(wrongType.isError, true);
    assert.match(wrongType.text, /arguments\.message/);
    const unknown = await call(client, 'ask_lead', { message: 'hi', mesage: 'typo' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /arguments\.mesage/);
    const foreign = await call(client, 'ask_clerk', { message: 'hi', dialog_id: 'ffffffffffffffff' });
    assert.equal(foreign.isError, true);
    assert.match(foreign.text, /arguments\.dialog_id/);
    await assert.rejects(
      client.callTool({ name: 'ask_nobody', arguments: { message: 'hi' } }),
      (err) => err instanceof McpError && err.code === -32602 && /params\.name/.test(err.message),
    );
    await assert.rejects(
      client.readResource({ uri: 'parley://dialogs/no-such-dialog' }),
      (err) => err instanceof McpError && err.code === -32002,
    );
  });
}

// A call that outlasts --mcp-call-timeout returns "working" with the dialog id, and wait_for_answer
// picks the answer up.
function workingTests(connect) {
  let client;
  before(async () => {
    ({ client } = await connect(['--mcp-call-timeout', '1']));
  });

  test('a long call returns "working", and wait_for_answer gets the answer', async () => {
    const working = await call(client, 'ask_lead', { message: 'slow' });
    assert.equal(working.data.status, 'working', working.text);
    assert.match(working.text, /wait_for_answer/);
    let waited = working;
    for (let round = 0; round < 60 && waited.data.status === 'working'; round += 1) {
      waited = await call(client, 'wait_for_answer', { dialog_id: working.data.dialog_id });
    }
    assert.equal(waited.data.status, 'answered', waited.text);
    assert.equal(waited.data.dialog_id, working.data.dialog_id);
    assert.match(waited.data.answer, /^Slowly, step by step/);
  });
}

describe('parley serve --mcp (streamable HTTP)', () => {
  const servers = [];
  const transports = [];
  const connect = async (extraArgs = []) => {
    const started = await startServer(extraArgs);
    servers.push(started);
    const connected = await httpClient(started.url, started.token);
    transports.push(connected.transport);
    return { ...connected, ...started };
  };
  after(async () => {
    for (const transport of transports) {
      await transport.terminateSession();
      await transport.close();
    }
    for (const { server } of servers) await stopServer(server);
  });

  describe('shared', () => sharedTests(connect));
  describe('working', () => workingTests(connect));

  test('the session id is required after initialize, an ended one is unknown, and the token is checked', async () => {
    const { url, token } = await connect();
    const post = (headers, body) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const noSession = await post({ Authorization: `Bearer ${token}` }, ping);
    assert.equal(noSession.status, 400);
    const unknown = await post({ Authorization: `Bearer ${token}`, 'Mcp-Session-Id': 'ffff' }, ping);
    assert.equal(unknown.status, 404);
    const noToken = await post({}, ping);
    assert.equal(noToken.status, 401);
    const get = await fetch(`${url}/mcp`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(get.status, 405);
  });
});

describe('parley mcp (stdio)', () => {
  const transports = [];
  const connect = async (extraArgs = []) => {
    const connected = await stdioClient(extraArgs);
    transports.push(connected.transport);
    return connected;
  };
  after(async () => {
    for (const transport of transports) await transport.close();
  });

  describe('shared', () => sharedTests(connect));
  describe('working', () => workingTests(connect));

  test('parley mcp exits cleanly when its input ends', async () => {
    const { team, data } = teamCopy();
    const child = spawn(binary, ['mcp', '--team', team, '--data', data], { env: offlineEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
    });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stdin.end(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })}\n`,
    );
    assert.deepEqual(await exited, { code: 0, signal: null });
    const lines = out.trim().split('\n');
    assert.equal(lines.length, 1, 'one line on stdout: the answer to initialize, nothing else');
    assert.equal(JSON.parse(lines[0]).result.serverInfo.name, 'parley');
  });
});

after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
