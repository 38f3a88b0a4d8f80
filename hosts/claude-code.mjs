#!/usr/bin/env node
// The host adapter for Claude Code (conformance/ADAPTER.md): runs the real `claude` on a
// scenario's task, offline, and reports what its approval channel showed. It decides nothing:
// Claude Code's own permission logic decides every call, and the scripted user answers the prompts
// Claude Code makes.
//
//   node claude-code.mjs [URL]                        the adapter (certify --host claude-code)
//   node claude-code.mjs --permission-server STATE    the scripted user's channel (started by claude)
//   node claude-code.mjs --elicitation-hook STATE     the same user for a server's elicitation (hook)
//
// How Claude Code is run, one `claude -p` per conversation of the task (a conversation ends at each
// {"newSession": true}), each with a fresh HOME:
// - its model is the scripted model endpoint (the context's `model.conversations[i]`, through
//   ANTHROPIC_BASE_URL), which asks for the task's calls one a turn;
// - its MCP servers are the scenario's mock servers (--mcp-config, --strict-mcp-config), and one
//   more, `mcphintsuser`, served by this file: its tool `approve` is Claude Code's
//   --permission-prompt-tool, through which Claude Code asks before a call. The scripted user answers
//   there ({"behavior": "allow"} or "deny"); Claude Code never shows that tool the hints;
// - a server's elicitation (and the stateless era's input_required, which Claude Code turns into
//   one) reaches the scripted user through an Elicitation hook (--settings): in -p, Claude Code
//   would otherwise answer it cancel itself. The prompt is the tool's last approved call's;
// - ENABLE_TOOL_SEARCH=false, or MCP tools hide behind a ToolSearch tool; no telemetry, no update.
//
// Events written: confirmation_requested and user_decision for each prompt (hints: none, as the
// prompt carries none), new_session between conversations, and blocked for a call Claude Code
// refused without asking (a permission denial the user was never asked about).
//
// Claude Code is found at $MCP_HINTS_CLAUDE, else hosts/node_modules/.bin/claude beside this file
// (make hosts), else `claude` on PATH.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import { appendEvent, decide, formContent, hostContext } from "./host-adapter.mjs";

const self = fileURLToPath(import.meta.url);
const USER_SERVER = "mcphintsuser";

// Claude Code names an MCP tool mcp__SERVER__TOOL, every character of the names outside
// [A-Za-z0-9_-] made '_'.
const safe = (name) => String(name).replace(/[^A-Za-z0-9_-]/g, "_");

// The scenario's (server, tool) for a name Claude Code gives, from the task's calls and servers.
function resolveTool(name, state) {
  for (const call of state.calls)
    if (name === `mcp__${safe(call.server)}__${safe(call.tool)}`) return { server: call.server, tool: call.tool };
  for (const server of state.servers)
    if (name.startsWith(`mcp__${safe(server)}__`)) return { server, tool: name.slice(`mcp__${safe(server)}__`.length) };
  return { server: "", tool: name };
}

// --- the scripted user's channel: an MCP server over stdio with one tool ---------------------

function permissionServer(stateFile) {
  const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    }
    if (message.id === undefined || message.id === null) return;  // a notification
    const reply = (result) => send({ jsonrpc: "2.0", id: message.id, result });
    switch (message.method) {
      case "initialize":
        return reply({
          protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: USER_SERVER, version: "1" },
        });
      case "ping":
        return reply({});
      case "tools/list":
        return reply({
          tools: [
            {
              name: "approve",
              description: "Asks the (scripted) user whether a tool call may go ahead.",
              inputSchema: {
                type: "object",
                properties: { tool_name: { type: "string" }, input: { type: "object" }, tool_use_id: { type: "string" } },
                required: ["tool_name"],
              },
            },
          ],
        });
      case "tools/call":
        return reply(approve(stateFile, message.params?.arguments ?? {}));
      default:
        return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  });
}

function approve(stateFile, args) {
  const state = JSON.parse(readFileSync(stateFile, "utf8"));
  const { server, tool } = resolveTool(String(args.tool_name ?? ""), state);
  const n = ++state.prompts;
  state.asked.push(String(args.tool_use_id ?? ""));
  appendEvent(state.events, {
    type: "confirmation_requested",
    tool,
    server,
    hints: [],
    reasons: ["Claude Code asks before this call (its permission prompt)"],
  });
  const decision = decide(state.user, n, tool);
  appendEvent(state.events, { type: "user_decision", tool, server, decision });
  if (decision === "approve") state.lastCall[server] = tool;  // an elicitation during it is about it
  writeFileSync(stateFile, JSON.stringify(state));
  const answer =
    decision === "approve"
      ? { behavior: "allow", updatedInput: args.input ?? {} }
      : { behavior: "deny", message: "The user denied this call." };
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
}

// --- the scripted user's answer to an elicitation: a Claude Code hook -------------------------

function elicitationHook(stateFile) {
  let input = "";
  process.stdin.on("data", (d) => (input += d));
  process.stdin.on("end", () => {
    let event = {};
    try {
      event = JSON.parse(input);
    } catch {}
    const state = JSON.parse(readFileSync(stateFile, "utf8"));
    const server = String(event.mcp_server_name ?? "");
    const tool = state.lastCall[server] ?? "";
    const n = ++state.prompts;
    writeFileSync(stateFile, JSON.stringify(state));
    appendEvent(state.events, {
      type: "confirmation_requested",
      tool,
      server,
      hints: [],
      message: String(event.message ?? ""),
      reasons: ["the server asks the user for input (an elicitation, through Claude Code's hook)"],
    });
    const decision = decide(state.user, n, tool);
    appendEvent(state.events, { type: "user_decision", tool, server, decision });
    const answer =
      decision === "approve"
        ? { hookEventName: "Elicitation", action: "accept", content: formContent(event.requested_schema) }
        : { hookEventName: "Elicitation", action: "decline" };
    process.stdout.write(JSON.stringify({ hookSpecificOutput: answer }) + "\n");
  });
}

// --- the adapter ------------------------------------------------------------------------------

function claudeBinary() {
  if (process.env.MCP_HINTS_CLAUDE) return process.env.MCP_HINTS_CLAUDE;
  const pinned = join(dirname(self), "node_modules", ".bin", "claude");
  return existsSync(pinned) ? pinned : "claude";
}

function runClaude(args, env) {
  return new Promise((resolve) => {
    const child = spawn(claudeBinary(), args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => resolve({ code: 127, out, err: err + e.message }));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

async function adapter() {
  const { context, folder, servers, conversations, calls } = hostContext("claude-code");
  const stateFile = join(folder, "claude-code-user.json");
  writeFileSync(
    stateFile,
    JSON.stringify({
      events: context.events,
      user: context.user ?? {},
      prompts: 0,
      asked: [],
      lastCall: {},
      servers,
      calls,
    }),
  );
  let failures = 0;
  for (let i = 0; i < conversations.length; ++i) {
    if (i > 0) appendEvent(context.events, { type: "new_session" });
    const home = join(folder, `claude-home-${i + 1}`);
    mkdirSync(home, { recursive: true });
    const mcpServers = {};
    for (const [name, server] of Object.entries(context.servers ?? {}))
      mcpServers[name] = server.url ? { type: "http", url: server.url } : { command: "/bin/sh", args: ["-c", server.command] };
    mcpServers[USER_SERVER] = { command: process.execPath, args: [self, "--permission-server", stateFile] };
    const config = join(folder, `claude-mcp-${i + 1}.json`);
    writeFileSync(config, JSON.stringify({ mcpServers }, null, 2));
    const hook = [process.execPath, self, "--elicitation-hook", stateFile].map((a) => `'${a.replace(/'/g, "'\\''")}'`);
    const settings = join(folder, `claude-settings-${i + 1}.json`);
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { Elicitation: [{ matcher: "", hooks: [{ type: "command", command: hook.join(" ") }] }] } }),
    );
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ANTHROPIC_BASE_URL: context.model.conversations[i],
      ANTHROPIC_API_KEY: "scripted",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      ENABLE_TOOL_SEARCH: "false",
    };
    const result = await runClaude(
      [
        "-p",
        "Do the task.",
        "--output-format",
        "json",
        "--mcp-config",
        config,
        "--strict-mcp-config",
        "--permission-prompt-tool",
        `mcp__${USER_SERVER}__approve`,
        "--settings",
        settings,
      ],
      env,
    );
    writeFileSync(join(folder, `claude-output-${i + 1}.json`), result.out);
    if (result.code !== 0) {
      ++failures;
      process.stderr.write(`claude exited with ${result.code}: ${result.err.split("\n").slice(-3).join(" ")}\n`);
    }
    // A denial the user was never asked about: Claude Code refused on its own.
    let output = {};
    try {
      output = JSON.parse(result.out);
    } catch {}
    const asked = new Set(JSON.parse(readFileSync(stateFile, "utf8")).asked);
    for (const denial of output.permission_denials ?? []) {
      if (asked.has(String(denial.tool_use_id))) continue;
      const { server, tool } = resolveTool(String(denial.tool_name), { calls, servers });
      appendEvent(context.events, { type: "blocked", tool, server, reason: "Claude Code refused the call without asking" });
    }
  }
  process.exit(failures ? 1 : 0);
}

if (process.argv[2] === "--permission-server") permissionServer(process.argv[3]);
else if (process.argv[2] === "--elicitation-hook") elicitationHook(process.argv[3]);
else await adapter();
