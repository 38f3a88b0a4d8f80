// What every host adapter (hosts/*.mjs, conformance/ADAPTER.md) shares: the run's context split
// into the task's conversations, the events file, and the scripted user. Written beside the
// adapters by certify --host; it decides nothing about a call.
import { appendFileSync } from "node:fs";
import { dirname } from "node:path";

export function appendEvent(file, event) {
  appendFileSync(file, JSON.stringify({ ...event, time: Date.now() / 1000 }) + "\n");
}

// The scripted user's answer to the run's n-th prompt, about `tool` (ADAPTER.md, "user").
export function decide(user, n, tool) {
  return user?.prompts?.[n - 1] ?? user?.tools?.[tool] ?? user?.default ?? "approve";
}

// Content for an accepted elicitation form: each property's default, else a value of its type.
export function formContent(schema) {
  const content = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property?.default !== undefined && property.default !== null) content[name] = property.default;
    else if (Array.isArray(property?.enum) && property.enum.length) content[name] = property.enum[0];
    else if (property?.type === "boolean") content[name] = true;
    else if (property?.type === "number" || property?.type === "integer") content[name] = property.minimum ?? 0;
    else content[name] = "yes";
  }
  return content;
}

// The run's context (MCP_CONFORMANCE_CONTEXT) with what a host adapter needs: the run folder, the
// servers' names, and the task's calls split into conversations (one per {"newSession": true}).
// Exits 2 when the context names no scripted model: a host needs one (certify --host).
export function hostContext(adapterName) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  if (!context.model?.conversations) {
    process.stderr.write(`${adapterName} adapter: the context names no scripted model (run it with certify --host)\n`);
    process.exit(2);
  }
  const servers = Object.keys(context.servers ?? {});
  const onlyServer = servers.length === 1 ? servers[0] : "";
  const conversations = [[]];
  for (const item of context.task ?? []) {
    if (item.newSession) conversations.push([]);
    else conversations.at(-1).push({ server: item.server ?? onlyServer, tool: item.tool });
  }
  return { context, folder: dirname(context.events), servers, conversations, calls: conversations.flat() };
}
