#!/usr/bin/env node
// The host adapter for the OpenAI Agents SDK (conformance/ADAPTER.md): runs a small Agents-SDK app
// (@openai/agents, JavaScript) on a scenario's task, offline, and reports what the app's approval
// channel showed. It decides nothing: the SDK's own human-in-the-loop mechanism decides when the
// app is asked, and the scripted user answers.
//
//   node openai-agents.mjs [URL]          the adapter (certify --host openai-agents)
//
// The app, one run per conversation of the task (a conversation ends at each {"newSession": true}):
// - its model is the scripted model endpoint: an OpenAIProvider whose baseURL is the context's
//   `model.conversations[i]` + "/v1" (OpenAI Responses API), given to a Runner of its own, so that
//   each conversation talks to its own URL (OPENAI_BASE_URL is read once by the SDK, and unused);
//   tracing is disabled, so nothing goes online;
// - its MCP servers are the scenario's mock servers: MCPServerStreamableHttp for a `url`,
//   MCPServerStdio running `/bin/sh -c COMMAND` for a `command`, all connected through
//   connectMcpServers at the start of the conversation and closed at its end (a new conversation
//   starts new MCP sessions; stdio server processes end); a server that cannot be connected is
//   left out, as connectMcpServers does. The agent lists their tools on every turn, as the SDK
//   does by default (no cacheToolsList), and offers them by their bare names, or, with several
//   servers, as mcp_SERVER__TOOL (includeServerInToolNames, as the SDK advises: with bare names it
//   refuses one tool name on two servers); a listing its MCP client finds invalid ends the run. A
//   scenario's requestTimeoutMs becomes the servers' `timeout` for their requests;
// - the app's policy, since the SDK reads no hint: every MCP tool call needs approval. The SDK
//   0.20.0 has requireApproval only for hosted MCP tools (hostedMcpTool, run by the Responses API
//   itself); for a local MCP server its equivalent is the function-tool option the SDK documents,
//   needsApproval, which this app sets to true on every MCP tool the agent gets. The SDK then
//   stops the run before the call with an interruption (result.interruptions, a
//   RunToolApprovalItem); the scripted user answers through result.state.approve(item) or
//   result.state.reject(item), and the app runs again from result.state until no interruption is
//   left. The interruption carries the model's function call (name, arguments) and no annotation:
//   the SDK's MCP tool type keeps only name, description and inputSchema. The SDK's MCP client
//   declares no elicitation, and hands the model an input_required result as a tool error: no
//   input request reaches the app.
//
// Events written: confirmation_requested (hints: [], as the interruption shows none) and
// user_decision for each interruption, new_session between conversations, and blocked for a
// function call the SDK ended without asking (none is expected: every MCP tool needs approval).
//
// The SDK is found at $MCP_HINTS_OPENAI_AGENTS (the @openai/agents package folder), else
// hosts/node_modules/@openai/agents beside this file (make hosts). Each conversation's items are
// kept in openai-agents-N.jsonl.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { appendEvent, decide, hostContext } from "./host-adapter.mjs";

const self = fileURLToPath(import.meta.url);
const REASON = "the app asks before every MCP tool call (needsApproval: true, its requireApproval: 'always')";

// The SDK's ESM entry point, from its package.json ("exports" ".", else "module"/"main").
async function loadSdk() {
  const folder = resolve(
    process.env.MCP_HINTS_OPENAI_AGENTS || join(dirname(self), "node_modules", "@openai", "agents"),
  );
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  } catch {
    process.stderr.write(`openai-agents adapter: no @openai/agents at ${folder} (make hosts, or set MCP_HINTS_OPENAI_AGENTS)\n`);
    process.exit(2);
  }
  const root = manifest.exports?.["."] ?? manifest.exports;
  const entry =
    (typeof root === "string" ? root : root?.import?.default ?? root?.import ?? root?.default) ??
    manifest.module ??
    manifest.main ??
    "index.js";
  const file = join(folder, entry);
  if (!existsSync(file)) {
    process.stderr.write(`openai-agents adapter: the @openai/agents entry point ${file} is missing\n`);
    process.exit(2);
  }
  return import(pathToFileURL(file).href);
}

// The task's (server, tool) for a function name the model called: the next call of that tool in
// the conversation not yet asked about (the SDK offers MCP tools by their bare names, or as
// mcp_SERVER__TOOL with includeServerInToolNames).
function resolveCall(name, conversation, asked, servers) {
  const safe = (s) => String(s).replace(/[^A-Za-z0-9_]/g, "_");
  const matching = conversation.filter(
    (c) => c.tool === name || safe(c.tool) === safe(name) || `mcp_${safe(c.server)}__${safe(c.tool)}` === safe(name),
  );
  const call = matching.find((c) => !asked.has(c)) ?? matching.at(-1);
  if (call) {
    asked.add(call);
    return { server: call.server, tool: call.tool };
  }
  return { server: servers.length === 1 ? servers[0] : "", tool: String(name ?? "") };
}

function mcpServer(sdk, name, server, context) {
  const common = { name, ...(context.requestTimeoutMs ? { timeout: context.requestTimeoutMs } : {}) };
  if (server.url) return new sdk.MCPServerStreamableHttp({ ...common, url: server.url });
  return new sdk.MCPServerStdio({ ...common, command: "/bin/sh", args: ["-c", server.command] });
}

// One conversation: connect every server, run the agent until no approval is pending, close.
async function runConversation({ sdk, index, folder, context, state, servers, conversation }) {
  const log = join(folder, `openai-agents-${index}.jsonl`);
  writeFileSync(log, "");
  const record = (what, value) => {
    try {
      appendFileSync(log, JSON.stringify({ [what]: value }) + "\n");
    } catch {}
  };
  const provider = new sdk.OpenAIProvider({
    baseURL: context.model.conversations[index - 1].replace(/\/$/, "") + "/v1",
    apiKey: "scripted",
    useResponses: true,
  });
  const runner = new sdk.Runner({ modelProvider: provider, tracingDisabled: true, workflowName: "mcp-hints" });
  // Every server of the scenario; one that cannot be connected is left out, as the SDK does.
  const all = Object.entries(context.servers ?? {}).map(([name, server]) => mcpServer(sdk, name, server, context));
  let mcp;
  try {
    mcp = await sdk.connectMcpServers(all, { connectInParallel: true });
  } catch (e) {
    await Promise.all(all.map((server) => server.close().catch(() => {})));
    return { code: 1, message: `connecting the MCP servers: ${e?.stack ?? e}` };
  }
  for (const [server, error] of mcp.errors) process.stderr.write(`MCP server ${server.name}: ${error?.message ?? error}\n`);

  // The app's policy: every MCP tool the agent gets needs approval (see the header).
  class ApprovingAgent extends sdk.Agent {
    async getMcpTools(runContext, tracingParent) {
      const tools = await super.getMcpTools(runContext, tracingParent);
      return tools.map((tool) => ({ ...tool, needsApproval: async () => true }));
    }
  }
  // With several servers the app names each tool after its server, as the SDK advises: with bare
  // names it refuses two servers that offer one tool name.
  const agent = new ApprovingAgent({
    name: "mcp-hints app",
    instructions: "Do the user's task with the tools you are given.",
    model: "scripted",
    mcpServers: mcp.active,
    ...(all.length > 1 ? { mcpConfig: { includeServerInToolNames: true } } : {}),
  });

  const asked = new Set();  // the task's calls asked about, for resolveCall
  const askedIds = new Set();  // the SDK's call ids asked about
  const maxTurns = 2 * conversation.length + 10;
  let code = 0;
  let message = "";
  try {
    let result = await runner.run(agent, "Do the task.", { maxTurns });
    while (result.interruptions?.length) {
      for (const item of result.interruptions) {
        record("approval", item.toJSON?.() ?? item);
        const { server, tool } = resolveCall(item.name ?? item.rawItem?.name, conversation, asked, servers);
        askedIds.add(item.rawItem?.callId);
        const n = ++state.prompts;
        appendEvent(context.events, { type: "confirmation_requested", tool, server, hints: [], reasons: [REASON] });
        const decision = decide(context.user ?? {}, n, tool);
        appendEvent(context.events, { type: "user_decision", tool, server, decision });
        if (decision === "approve") result.state.approve(item);
        else result.state.reject(item);
      }
      result = await runner.run(agent, result.state, { maxTurns });
    }
    // The run's items (newItems of a resumed run holds them all). A function call the SDK ended
    // without asking: it refused the call on its own.
    const items = result.newItems ?? [];
    for (const item of items) record("item", item.toJSON?.() ?? item);
    const outputs = new Map();
    for (const item of items) if (item.type === "tool_call_output_item") outputs.set(item.rawItem?.callId, item.output);
    for (const item of items) {
      if (item.type !== "tool_call_item" || item.rawItem?.type !== "function_call") continue;
      if (askedIds.has(item.rawItem.callId)) continue;
      const { server, tool } = resolveCall(item.rawItem.name, conversation, asked, servers);
      const output = outputs.get(item.rawItem.callId);
      appendEvent(context.events, {
        type: "blocked",
        tool,
        server,
        reason: `the Agents SDK ended the call without asking${output ? `: ${JSON.stringify(output).slice(0, 200)}` : ""}`,
      });
    }
  } catch (e) {
    code = 1;
    message = e?.stack ?? String(e);
    record("error", message);
  } finally {
    await mcp.close().catch(() => {});
  }
  return { code, message };
}

async function adapter() {
  const { context, folder, servers, conversations } = hostContext("openai-agents");
  process.env.OPENAI_AGENTS_DISABLE_TRACING = "1";
  const sdk = await loadSdk();
  sdk.setTracingDisabled?.(true);
  const state = { prompts: 0 };
  let failures = 0;
  for (let i = 0; i < conversations.length; ++i) {
    if (i > 0) appendEvent(context.events, { type: "new_session" });
    const result = await runConversation({
      sdk,
      index: i + 1,
      folder,
      context,
      state,
      servers,
      conversation: conversations[i],
    });
    if (result.code !== 0) {
      ++failures;
      process.stderr.write(`the Agents SDK app failed: ${result.message.split("\n").slice(0, 3).join(" ")}\n`);
    }
  }
  process.exit(failures ? 1 : 0);
}

await adapter();
