// An adapter for the official TypeScript SDK client v2 (@modelcontextprotocol/client, the
// 2026-07-28 era; pinned in node/package-lock.json), following conformance/ADAPTER.md with the
// simple policy of sdk-adapter-policy.mjs. --negotiation says how it meets a server: 'pin' speaks
// only 2026-07-28 (server/discover first, no fallback), 'auto' probes with server/discover and
// falls back to the 2025 initialize handshake when the server does not answer it.
//   node typescript-sdk-v2-client.mjs [--negotiation pin|auto] [URL]   (context in MCP_CONFORMANCE_CONTEXT)
import { loadPeer, runTask } from './sdk-adapter-policy.mjs';

const modes = { pin: { pin: '2026-07-28' }, auto: 'auto' };
const at = process.argv.indexOf('--negotiation');
const negotiation = at < 0 ? 'auto' : process.argv[at + 1];
if (!(negotiation in modes)) {
  process.stderr.write('typescript-sdk-v2-client: --negotiation must be pin or auto\n');
  process.exit(2);
}

const { Client, StreamableHTTPClientTransport } = await loadPeer('@modelcontextprotocol/client');
const { StdioClientTransport } = await loadPeer('@modelcontextprotocol/client/stdio');

await runTask(async ({ url, command, authorization, onToolListChanged }) => {
  const transport = url
    ? new StreamableHTTPClientTransport(new URL(url),
      authorization ? { requestInit: { headers: { Authorization: authorization } } } : undefined)
    : new StdioClientTransport({
      command: '/bin/sh', args: ['-c', `exec ${command}`], stderr: 'ignore',
      ...(authorization ? { env: { ...process.env, MCP_HINTS_AUTHORIZATION: authorization } } : {}),
    });
  const client = new Client({ name: 'mcp-hints-typescript-sdk-v2-adapter', version: '0.1.0' },
    { versionNegotiation: { mode: modes[negotiation] } });
  client.setNotificationHandler('notifications/tools/list_changed', onToolListChanged);
  await client.connect(transport);
  return client;
}, 'typescript-sdk-v2-client');
