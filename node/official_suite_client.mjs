// A minimal client for the official conformance suite's client scenarios, for the certify
// benchmark: the suite's own example client is not published to npm, so this one, on the
// official TypeScript SDK, connects to the URL the suite appends as the last argument,
// initializes, lists tools and calls each with small arguments, then leaves. It passes the
// suite's initialize, tools_call and sse-retry scenarios and fails its auth scenarios at once.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'mcp-hints-bench', version: '0.1.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(process.argv.at(-1))));
  const { tools } = await client.listTools();
  for (const tool of tools) {
    try {
      await client.callTool({ name: tool.name, arguments: { a: 1, b: 2 } });
    } catch {
      // a failing tool is the scenario's business, not ours
    }
  }
  await client.close();
} catch (error) {
  console.error(String(error));
}
