// An MCP server made with the official SDK that reads and writes files where it is told: for the
// tests of a stdio server under a member's sandbox (tests/unit/tools/mcp_sandbox_test.cpp). Its
// tool `instance` answers a token drawn when the process started, so that a test can tell whether
// two members reached the same process (a pid would not do: inside the sandbox's own pid
// namespace every server may have the same one).
// usage: node file_probe_server.mjs [MARKER]   (the marker only names the process in /proc)
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const instance = randomUUID();
const pathOnly = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const server = new Server({ name: 'file-probe', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
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
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  try {
    if (request.params.name === 'read_text') return { content: [{ type: 'text', text: readFileSync(args.path, 'utf8') }] };
    if (request.params.name === 'write_text') {
      writeFileSync(args.path, args.text);
      return { content: [{ type: 'text', text: 'written' }] };
    }
    return { content: [{ type: 'text', text: instance }] };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: `failed: ${error.code ?? error.message}` }] };
  }
});
await server.connect(new StdioServerTransport());
