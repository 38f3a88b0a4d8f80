// The official TypeScript SDK client as a witness for the interop tests: connects over stdio or
// Streamable HTTP, lists every page of tools, optionally calls one, and prints what it received
// as {"tools": [...], "call": result} — the tools as the SDK hands them to an application.
// With --negotiation it is the SDK v2 client of the 2026-07-28 era instead of v1: 'pin' speaks
// only 2026-07-28, 'auto' falls back to the 2025 handshake.
//   node sdk_client.mjs [--negotiation pin|auto] stdio COMMAND [ARGS...] [--call TOOL=JSONARGS]
//   node sdk_client.mjs [--negotiation pin|auto] http URL [--call TOOL=JSONARGS]
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
let call;
const spec = option('--call');
if (spec !== undefined) {
  const eq = spec.indexOf('=');
  call = { name: spec.slice(0, eq), arguments: JSON.parse(spec.slice(eq + 1)) };
}
const negotiation = option('--negotiation');
const modes = { pin: { pin: '2026-07-28' }, auto: 'auto' };
if (negotiation !== undefined && !(negotiation in modes)) {
  console.error('sdk_client: --negotiation must be pin or auto');
  process.exit(2);
}
const v2 = negotiation !== undefined;
const { Client, StreamableHTTPClientTransport } = v2
  ? await import('@modelcontextprotocol/client')
  : { ...(await import('@modelcontextprotocol/sdk/client/index.js')), ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')) };
const { StdioClientTransport } = await import(v2 ? '@modelcontextprotocol/client/stdio' : '@modelcontextprotocol/sdk/client/stdio.js');

const [mode, ...rest] = args;
const transport = mode === 'http'
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: 'ignore' });
const client = new Client({ name: 'mcp-hints-interop', version: '0.1.0' }, v2 ? { versionNegotiation: { mode: modes[negotiation] } } : {});
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
