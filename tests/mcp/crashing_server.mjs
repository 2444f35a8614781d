// An MCP server made with the official SDK whose tool `crash` kills its own process mid-call (exit
// status 3), and whose tool `pid` says its process id: for the client's crash and restart tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'crashing', version: '1.0.0' });
server.registerTool('crash', { description: 'Exits the server while the call is pending.' }, async () => {
  setTimeout(() => process.exit(3), 10);
  return new Promise(() => {});
});
server.registerTool('pid', { description: 'The server process id.' }, async () => ({
  content: [{ type: 'text', text: String(process.pid) }],
}));
await server.connect(new StdioServerTransport());
