// An MCP stdio server that reads and writes files where it is told: for the tests of a stdio server
// under a member's sandbox (tests/unit/tools/mcp_sandbox_test.cpp). It speaks newline-delimited
// JSON-RPC with nothing but node's built-ins, because inside the sandbox only the workspace is
// sure to be visible (/tmp is a private tmpfs there): the test copies this one file into the
// workspace, where the SDK's node_modules could not follow it. The servers from npm and the SDK are
// tested elsewhere (mcp_real_servers_test.cpp). Its tool `instance` answers a token drawn when the
// process started, so that a test can tell whether two members reached the same process (a pid
// would not do: inside the sandbox's own pid namespace every server may have the same one).
// usage: node file_probe_server.mjs [MARKER]   (the marker only names the process in /proc)
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const instance = randomUUID();
const pathOnly = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const tools = [
  { name: 'read_text', description: 'Reads a file.', inputSchema: pathOnly },
  {
    name: 'write_text',
    description: 'Writes a file.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, text: { type: 'string' } },
      required: ['path', 'text'],
    },
  },
  { name: 'instance', description: 'The token of this process.', inputSchema: { type: 'object' } },
];

function text(body) {
  return { content: [{ type: 'text', text: body }] };
}

function callTool(params) {
  const args = params.arguments ?? {};
  try {
    if (params.name === 'read_text') return text(readFileSync(args.path, 'utf8'));
    if (params.name === 'write_text') {
      writeFileSync(args.path, args.text);
      return text('written');
    }
    return text(instance);
  } catch (error) {
    return { isError: true, ...text(`failed: ${error.code ?? error.message}`) };
  }
}

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'file-probe', version: '1.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools };
    case 'tools/call':
      return callTool(request.params);
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return; // a notification
  const result = answer(request);
  const reply =
    result === undefined
      ? { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `no method ${request.method}` } }
      : { jsonrpc: '2.0', id: request.id, result };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
});
