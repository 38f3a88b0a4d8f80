// A server built on the TypeScript SDK v2 (@modelcontextprotocol/server, the 2026-07-28 era) with
// a small hinted catalog: the peer that check-server meets on the stateless-era wire. Its
// --legacy says what a 2025-era opening gets: 'serve' answers it from the same catalog, 'reject'
// answers the unsupported-protocol-version error. Over HTTP it listens on 127.0.0.1 and prints
// its URL first.
//   node sdk2_server.mjs [--transport stdio|http] [--legacy serve|reject]
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';

function option(name, allowed, fallback) {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (!allowed.includes(value)) {
    console.error(`sdk2_server: ${name} must be one of ${allowed.join(', ')}`);
    process.exit(2);
  }
  return value;
}
const transport = option('--transport', ['stdio', 'http'], 'stdio');
const legacy = option('--legacy', ['serve', 'reject'], 'serve');

const done = async () => ({ content: [{ type: 'text', text: 'done' }] });

// One factory for both eras: the SDK builds an instance per connection (stdio) or per request (HTTP).
function catalog() {
  const server = new McpServer({ name: 'sdk2-hinted', version: '0.1.0' }, {
    capabilities: { tools: {} },
    cacheHints: { 'tools/list': { ttlMs: 60000, cacheScope: 'public' } },
  });
  server.registerTool('read_file', {
    description: 'Read a file by id.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, done);
  server.registerTool('delete_file', {
    description: 'Delete a file by id.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }, done);
  server.registerTool('send_email', {
    description: 'Send an email to anyone.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  }, done);
  return server;
}

if (transport === 'http') {
  // The SDK's stateless fallback is its way of serving 2025-era traffic over HTTP.
  const handler = createMcpHandler(catalog, { legacy: legacy === 'serve' ? 'stateless' : 'reject' });
  const httpServer = http.createServer(toNodeHandler(handler));
  httpServer.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`));
} else {
  serveStdio(catalog, { legacy });
}
