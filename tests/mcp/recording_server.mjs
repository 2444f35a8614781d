// An MCP server made with the official SDK whose tool `slow_write` appends "<pid> <note>" to the
// file named by its first argument, then waits `sleep_ms` before it answers: the calls it was
// given are counted in that file, and a call can be caught in flight (the durable-call tests:
// tests/unit/engine/mcp_durable_test.cpp, tests/crash/crash_test.cpp).
// usage: node recording_server.mjs CALLS_FILE
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const callsFile = process.argv[2];
const server = new Server({ name: 'recording', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'slow_write',
      description: 'Records a note, then answers after sleep_ms.',
      inputSchema: {
        type: 'object',
        properties: { note: { type: 'string' }, sleep_ms: { type: 'integer', minimum: 0 } },
        required: ['note', 'sleep_ms'],
      },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { note, sleep_ms: sleepMs } = request.params.arguments;
  appendFileSync(callsFile, `${process.pid} ${note}\n`);
  await new Promise((done) => setTimeout(done, sleepMs));
  return { content: [{ type: 'text', text: `recorded ${note}` }] };
});
await server.connect(new StdioServerTransport());
