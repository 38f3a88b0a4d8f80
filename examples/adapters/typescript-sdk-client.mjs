// An adapter for the official TypeScript SDK client v1 (@modelcontextprotocol/sdk, pinned in
// node/package-lock.json), following conformance/ADAPTER.md with the simple policy of
// sdk-adapter-policy.mjs.
//   node typescript-sdk-client.mjs [URL]      (context in MCP_CONFORMANCE_CONTEXT)
import { loadPeer, runTask } from './sdk-adapter-policy.mjs';

const { Client } = await loadPeer('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await loadPeer('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = await loadPeer('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ToolListChangedNotificationSchema } = await loadPeer('@modelcontextprotocol/sdk/types.js');

await runTask(async ({ url, command, authorization, onToolListChanged }) => {
  const transport = url
    ? new StreamableHTTPClientTransport(new URL(url),
      authorization ? { requestInit: { headers: { Authorization: authorization } } } : undefined)
    : new StdioClientTransport({
      command: '/bin/sh', args: ['-c', `exec ${command}`], stderr: 'ignore',
      ...(authorization ? { env: { ...process.env, MCP_HINTS_AUTHORIZATION: authorization } } : {}),
    });
  const client = new Client({ name: 'mcp-hints-typescript-sdk-adapter', version: '0.1.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, onToolListChanged);
  await client.connect(transport);
  return client;
}, 'typescript-sdk-client');
