#!/usr/bin/env node
// The host adapter for the Codex CLI (conformance/ADAPTER.md): runs the real `codex app-server` on
// a scenario's task, offline, and reports what its approval channel showed. It decides nothing:
// Codex's own approval logic decides every call, and the scripted user answers the prompts Codex
// makes.
//
//   node codex.mjs [URL]          the adapter (certify --host codex)
//
// How Codex is run, one `codex app-server` per conversation of the task (a conversation ends at
// each {"newSession": true}), each with a fresh CODEX_HOME and HOME:
// - config.toml names the scripted model endpoint (the context's `model.conversations[i]`) as its
//   model provider (wire_api "responses"), approval_policy "on-request", and the scenario's mock
//   servers under [mcp_servers.NAME] (command or url);
// - the adapter speaks the app-server protocol on Codex's stdio (JSON-RPC, one message a line):
//   initialize (experimentalApi), initialized, thread/start, turn/start, then it answers Codex's
//   requests until turn/completed. Codex asks its caller before an MCP tool call as
//   mcpServer/elicitation/request with _meta.codex_approval_kind "mcp_tool_call"; the scripted user
//   answers {"action": "accept"} or "decline". A server's own elicitation comes the same way,
//   without that kind, and is answered the same way (its prompt is the server's last approved call);
// - every other approval Codex asks for (a shell command, a file change) is declined: the task
//   holds none.
//
// Events written: confirmation_requested (hints: the hint keys of the tool's annotations the prompt
// carried) and user_decision for each prompt, new_session between conversations, and blocked for
// an MCP call Codex ended without running and without asking.
//
// Codex is found at $MCP_HINTS_CODEX, else hosts/node_modules/.bin/codex beside this file (make
// hosts), else `codex` on PATH. Each conversation's protocol is kept in codex-protocol-N.jsonl.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import { appendEvent, decide, formContent, hostContext } from "./host-adapter.mjs";

const self = fileURLToPath(import.meta.url);

function codexBinary() {
  if (process.env.MCP_HINTS_CODEX) return process.env.MCP_HINTS_CODEX;
  const pinned = join(dirname(self), "node_modules", ".bin", "codex");
  return existsSync(pinned) ? pinned : "codex";
}

// A TOML basic string.
const toml = (text) => JSON.stringify(String(text));

// Codex names a server's tools in a namespace mcp__SERVER, every character outside [A-Za-z0-9_]
// made '_'; the scenario's server for a name Codex gives.
function resolveServer(name, servers) {
  if (servers.includes(name)) return name;
  const safe = (s) => String(s).replace(/[^A-Za-z0-9_]/g, "_");
  return servers.find((s) => safe(s) === safe(name)) ?? String(name);
}

function resolveTool(name, server, calls) {
  const safe = (s) => String(s).replace(/[^A-Za-z0-9_]/g, "_");
  const call = calls.find((c) => (c.server === server || !server) && safe(c.tool) === safe(name));
  return call ? call.tool : String(name ?? "");
}

// The hint keys a prompt carried: the tool annotations Codex hands its caller with the prompt.
function shownHints(meta) {
  const annotations = meta?.tool_annotations ?? meta?.toolAnnotations;
  if (!annotations || typeof annotations !== "object") return [];
  return Object.keys(annotations).filter((k) => annotations[k] !== null && annotations[k] !== undefined && k !== "title");
}

function writeConfig(home, modelUrl, servers) {
  const lines = [
    'model = "scripted"',
    'model_provider = "scripted"',
    'approval_policy = "on-request"',
    'sandbox_mode = "read-only"',
    "",
    "[model_providers.scripted]",
    'name = "scripted"',
    `base_url = ${toml(modelUrl.replace(/\/$/, "") + "/v1")}`,
    'wire_api = "responses"',
    "requires_openai_auth = false",
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
  ];
  for (const [name, server] of Object.entries(servers)) {
    lines.push(`[mcp_servers.${toml(name)}]`);
    if (server.url) lines.push(`url = ${toml(server.url)}`);
    else lines.push('command = "/bin/sh"', `args = ["-c", ${toml(server.command)}]`);
    lines.push("startup_timeout_sec = 30", "tool_timeout_sec = 60", "");
  }
  writeFileSync(join(home, "config.toml"), lines.join("\n"));
}

// One conversation: a codex app-server, one thread, one turn. Resolves when the turn completes
// or Codex exits.
function runConversation({ index, folder, context, state, servers, calls }) {
  const home = join(folder, `codex-home-${index}`);
  mkdirSync(home, { recursive: true });
  writeConfig(home, context.model.conversations[index - 1], context.servers ?? {});
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CODEX_HOME: home,
    OPENAI_API_KEY: "scripted",
    RUST_LOG: "error",
  };
  const log = join(folder, `codex-protocol-${index}.jsonl`);
  writeFileSync(log, "");
  return new Promise((resolve) => {
    const child = spawn(codexBinary(), ["app-server"], { env, cwd: home, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    let done = false;
    let nextId = 1;
    const pending = new Map();
    const running = new Map();  // MCP call items in progress, by item id: {server, tool, asked}
    // Codex ends its MCP servers when its stdin closes; a signal only if it does not within 5 s.
    const finish = (code) => {
      if (done) return;
      done = true;
      child.stdin.end();
      const stop = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("close", () => {
        clearTimeout(stop);
        resolve({ code, stderr });
      });
      if (child.exitCode !== null || child.signalCode !== null) {
        clearTimeout(stop);
        resolve({ code, stderr });
      }
    };
    const send = (message) => {
      appendFileSync(log, JSON.stringify({ to: "codex", message }) + "\n");
      if (!child.stdin.destroyed && !child.stdin.writableEnded) child.stdin.write(JSON.stringify(message) + "\n");
    };
    const request = (method, params) =>
      new Promise((ok, fail) => {
        const id = nextId++;
        pending.set(id, { ok, fail });
        send({ jsonrpc: "2.0", id, method, params });
      });
    const answerPrompt = (message) => {
      const params = message.params ?? {};
      const meta = params._meta ?? {};
      const server = resolveServer(params.serverName ?? "", servers);
      const approval = meta.codex_approval_kind === "mcp_tool_call";
      const tool = approval ? resolveTool(meta.tool_name, server, calls) : (state.lastCall[server] ?? "");
      // The prompt is about the call of that tool Codex has started and not ended.
      if (approval)
        for (const call of running.values()) if (call.server === server && call.tool === tool) call.asked = true;
      const n = ++state.prompts;
      const event = { type: "confirmation_requested", tool, server, hints: approval ? shownHints(meta) : [] };
      if (approval) event.reasons = ["Codex asks before this call (its approval request)"];
      else {
        event.message = String(params.message ?? "");
        event.reasons = ["the server asks the user for input (an elicitation, through Codex)"];
      }
      appendEvent(context.events, event);
      const decision = decide(context.user ?? {}, n, tool);
      appendEvent(context.events, { type: "user_decision", tool, server, decision });
      if (approval && decision === "approve") state.lastCall[server] = tool;
      const result =
        decision === "approve"
          ? approval
            ? { action: "accept" }
            : { action: "accept", content: formContent(params.requestedSchema) }
          : { action: "decline" };
      send({ jsonrpc: "2.0", id: message.id, result });
    };
    const onItem = (method, item) => {
      if (item?.type !== "mcpToolCall") return;
      const server = resolveServer(item.server ?? "", servers);
      const tool = resolveTool(item.tool, server, calls);
      if (method === "item/started") return void running.set(item.id, { server, tool, asked: false });
      const call = running.get(item.id);
      running.delete(item.id);
      // Ended with neither a result nor a prompt: Codex refused it on its own.
      if (item.status === "completed" || item.result || call?.asked) return;
      appendEvent(context.events, {
        type: "blocked",
        tool,
        server,
        reason: `Codex ended the call without asking: ${item.error?.message ?? item.status ?? "no result"}`,
      });
    };
    createInterface({ input: child.stdout }).on("line", (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      appendFileSync(log, JSON.stringify({ from: "codex", message }) + "\n");
      if (message.id !== undefined && message.method === undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (!waiter) return;
        return message.error ? waiter.fail(new Error(message.error.message ?? "error")) : waiter.ok(message.result);
      }
      if (message.id !== undefined) {
        if (message.method === "mcpServer/elicitation/request") return answerPrompt(message);
        // Any other approval (a command, a file change, permissions): the task holds none.
        const declined = message.method?.endsWith("requestApproval") || message.method?.endsWith("Approval");
        return send(
          declined
            ? { jsonrpc: "2.0", id: message.id, result: { decision: "decline" } }
            : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not supported by mcp-hints" } },
        );
      }
      if (message.method === "item/started" || message.method === "item/completed")
        onItem(message.method, message.params?.item);
      else if (message.method === "turn/completed") finish(0);
    });
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
    child.on("error", (e) => {
      stderr += e.message;
      finish(127);
    });
    child.on("close", (code) => finish(code === null ? 1 : code || 1));  // before the turn completed
    (async () => {
      try {
        await request("initialize", {
          clientInfo: { name: "mcp-hints", title: "mcp-hints certify", version: "1" },
          capabilities: { experimentalApi: true },
        });
        send({ jsonrpc: "2.0", method: "initialized" });
        const started = await request("thread/start", {
          cwd: home,
          approvalPolicy: "on-request",
          sandbox: "read-only",
          ephemeral: true,
        });
        const threadId = started?.thread?.id;
        await request("turn/start", { threadId, input: [{ type: "text", text: "Do the task.", text_elements: [] }] });
      } catch (e) {
        stderr += `app-server: ${e.message}\n`;
        finish(1);
      }
    })();
  });
}

async function adapter() {
  const { context, folder, servers, conversations, calls } = hostContext("codex");
  const state = { prompts: 0, lastCall: {} };
  let failures = 0;
  for (let i = 0; i < conversations.length; ++i) {
    if (i > 0) appendEvent(context.events, { type: "new_session" });
    const result = await runConversation({ index: i + 1, folder, context, state, servers, calls });
    if (result.code !== 0) {
      ++failures;
      process.stderr.write(`codex exited with ${result.code}: ${result.stderr.split("\n").slice(-3).join(" ")}\n`);
    }
  }
  process.exit(failures ? 1 : 0);
}

await adapter();
