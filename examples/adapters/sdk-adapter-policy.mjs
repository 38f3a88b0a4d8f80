// The adapter contract (conformance/ADAPTER.md) and the simple policy shared by the TypeScript SDK
// adapters (typescript-sdk-client.mjs for SDK v1, typescript-sdk-v2-client.mjs for SDK v2), the
// kind an application writes on top of the SDK in an afternoon:
//   - ask the user before a tool the specification's hints do not call safe (readOnlyHint true,
//     or destructiveHint false), or whose _meta says mcp.dev/requiresConfirmation true;
//   - carry #711 trust annotations from results on every later tools/call;
//   - list tools again after tools/list_changed;
//   - never retry.
// It sees tools as the SDK hands them over, so hints the SDK drops never reach it. Each adapter
// only says how its SDK connects; the packages come from node/ (pinned by its package-lock.json).
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const requireFromPeers = createRequire(path.join(here, '..', '..', 'node', 'package.json'));
export const loadPeer = (specifier) => import(pathToFileURL(requireFromPeers.resolve(specifier)).href);

// Runs the task of MCP_CONFORMANCE_CONTEXT. open({ url, command, authorization, onToolListChanged })
// returns a connected client of the adapter's SDK: over http the URL, over stdio a /bin/sh command
// line; authorization (e.g. 'Bearer TOKEN', or undefined) goes in the Authorization header over
// http and in the server's environment (MCP_HINTS_AUTHORIZATION) over stdio.
export async function runTask(open, label) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const lastArgument = process.argv.at(-1);
  const urlArgument = lastArgument?.startsWith('http') ? lastArgument : undefined;
  const emit = (event) => {
    if (context.events) appendFileSync(context.events, JSON.stringify({ ...event, time: Date.now() / 1000 }) + '\n');
  };

  // The scripted user: per prompt, else per tool, else the default.
  const user = context.user ?? {};
  let prompts = 0;
  const decide = (tool) => {
    const n = prompts++;
    return user.prompts?.[n] ?? user.tools?.[tool] ?? user.default ?? 'approve';
  };

  const serverNames = Object.keys(context.servers ?? {});
  const connections = new Map();
  let carried = {};

  // One connection per server and authorization context, each with its own listing.
  async function connect(name, as) {
    const key = `${name}\n${as ?? ''}`;
    if (connections.has(key)) return connections.get(key);
    const spec = context.servers?.[name] ?? {};
    const token = as === undefined ? undefined : context.authorizations?.[as]?.token;
    if (as !== undefined && token === undefined) throw new Error(`no token for the authorization context ${as}`);
    const connection = { tools: new Map(), stale: true };
    connection.client = await open({
      url: spec.url ?? urlArgument,
      command: spec.command ?? process.env.MCP_HINTS_SERVER_COMMAND,
      authorization: token === undefined ? undefined : `Bearer ${token}`,
      onToolListChanged: () => { connection.stale = true; },
    });
    connections.set(key, connection);
    return connection;
  }

  async function relist(connection) {
    connection.tools.clear();
    let cursor;
    do {
      const page = await connection.client.listTools(cursor ? { cursor } : {});
      for (const tool of page.tools) connection.tools.set(tool.name, tool);
      cursor = page.nextCursor;
    } while (cursor);
    connection.stale = false;
  }

  function needsConfirmation(tool) {
    const a = tool.annotations ?? {};
    const safe = a.readOnlyHint === true || a.destructiveHint === false;
    return !safe || tool._meta?.['mcp.dev/requiresConfirmation'] === true;
  }

  function carry(result) {
    const seen = result?._meta?.annotations;
    if (!seen || typeof seen !== 'object') return;
    const levels = ['low', 'medium', 'high'];
    if (levels.includes(seen.sensitiveHint) && levels.indexOf(seen.sensitiveHint) > levels.indexOf(carried.sensitiveHint ?? ''))
      carried.sensitiveHint = seen.sensitiveHint;
    for (const flag of ['privateHint', 'openWorldHint', 'maliciousActivityHint']) if (seen[flag] === true) carried[flag] = true;
    if (Array.isArray(seen.attribution))
      carried.attribution = [...new Set([...(carried.attribution ?? []), ...seen.attribution.filter((s) => typeof s === 'string')])];
  }

  for (const item of context.task ?? []) {
    if (item.newSession) {
      for (const c of connections.values()) await c.client.close();
      connections.clear();
      carried = {};
      emit({ type: 'new_session' });  // the stateless era has no protocol session to end
      continue;
    }
    const server = item.server ?? serverNames[0] ?? 'main';
    try {
      const connection = await connect(server, item.authorization);
      if (connection.stale) await relist(connection);
      const tool = connection.tools.get(item.tool);
      if (!tool) throw new Error(`the server lists no tool ${item.tool}`);
      if (needsConfirmation(tool)) {
        emit({ type: 'confirmation_requested', server, tool: item.tool, hints: Object.keys(tool.annotations ?? {}) });
        const decision = decide(item.tool);
        emit({ type: 'user_decision', server, tool: item.tool, decision });
        if (decision !== 'approve') continue;
      }
      const request = { name: item.tool, arguments: item.arguments ?? {} };
      if (Object.keys(carried).length) request._meta = { annotations: carried };
      carry(await connection.client.callTool(request));
    } catch (error) {
      process.stderr.write(`${label}: ${item.tool}: ${error.message}\n`);
    }
  }
  for (const c of connections.values()) await c.client.close();
}
