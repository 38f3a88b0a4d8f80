// Lists a server's tools with the official TypeScript SDK client, all pages, and prints their
// names as a JSON array: an independent witness for the interop tests.
//   node sdk_list_tools.mjs stdio COMMAND [ARGS...]
//   node sdk_list_tools.mjs http URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, ...rest] = process.argv.slice(2);
const transport = mode === 'http'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: 'ignore' });
const client = new Client({ name: 'mcp-hints-interop', version: '0.1.0' });
await client.connect(transport);
const names = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  names.push(...page.tools.map((t) => t.name));
  cursor = page.nextCursor;
} while (cursor);
console.log(JSON.stringify(names));
await client.close();
