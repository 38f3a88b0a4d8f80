// The official TypeScript SDK client as a witness for the interop tests: connects over stdio or
// Streamable HTTP, lists every page of tools, optionally calls one, and prints what it received
// as {"tools": [...], "call": result} — the tools as the SDK hands them to an application.
//   node sdk_client.mjs stdio COMMAND [ARGS...] [--call TOOL=JSONARGS]
//   node sdk_client.mjs http URL [--call TOOL=JSONARGS]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const args = process.argv.slice(2);
let call;
const at = args.indexOf('--call');
if (at >= 0) {
  const spec = args.splice(at, 2)[1];
  const eq = spec.indexOf('=');
  call = { name: spec.slice(0, eq), arguments: JSON.parse(spec.slice(eq + 1)) };
}
const [mode, ...rest] = args;
const transport = mode === 'http'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: 'ignore' });
const client = new Client({ name: 'mcp-hints-interop', version: '0.1.0' });
await client.connect(transport);
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor);
const out = { tools };
if (call) out.call = await client.callTool(call);
console.log(JSON.stringify(out));
await client.close();
