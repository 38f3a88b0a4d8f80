// The TypeScript SDK's McpServer with one trivial tool, over stdio or Streamable HTTP on
// 127.0.0.1 (it prints its URL first): the peer of the mock server in bench/mock_rpc.
//   node sdk_echo_server.mjs stdio | http
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const server = new McpServer({ name: 'sdk-echo', version: '0.1.0' });
server.registerTool('echo', { description: 'echo', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));

if (process.argv[2] === 'http') {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  await server.connect(transport);
  const httpServer = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  });
  httpServer.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`));
} else {
  await server.connect(new StdioServerTransport());
}
