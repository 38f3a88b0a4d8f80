#!/usr/bin/env python3
"""A minimal adapter (conformance/ADAPTER.md), to start your own from: stdio, the session era.

mcp-hints certify runs it once per scenario. It starts the mock server from
MCP_HINTS_SERVER_COMMAND, reads the task and the scripted user from MCP_CONFORMANCE_CONTEXT, and
does the task the way a client with a simple policy would: it asks the user before a call unless
the specification's hints say read-only or non-destructive, and reports each prompt and answer
in the events file. Replace `needs_confirmation` and the calls with your client's own.

    mcp-hints certify --client 'python3 examples/adapters/minimal-adapter.py' --protocol 2025-11-25

It speaks the session era only, hence --protocol 2025-11-25; one session, no HTTP.
"""
import json
import os
import subprocess
import time

context = json.loads(os.environ["MCP_CONFORMANCE_CONTEXT"])
server = subprocess.Popen(["/bin/sh", "-c", os.environ["MCP_HINTS_SERVER_COMMAND"]],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
next_id = 0
prompts = 0


def send(method, params=None, notification=False):
    """One JSON-RPC message to the server; the result of a request."""
    global next_id
    message = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if not notification:
        next_id += 1
        message["id"] = next_id
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()
    while not notification:
        answer = json.loads(server.stdout.readline())
        if answer.get("id") == next_id:
            return answer.get("result", {})


def event(kind, **members):
    """What only the client sees, for the judge: one JSON line, Unix time in seconds."""
    with open(context["events"], "a") as events:
        events.write(json.dumps({"type": kind, "time": time.time(), **members}) + "\n")


def needs_confirmation(tool):
    """The specification's hints, with their defaults: ask unless read-only or non-destructive."""
    hints = tool.get("annotations", {})
    return not hints.get("readOnlyHint", False) and hints.get("destructiveHint", True) is not False


def user_answer(tool):
    """The scripted user: the n-th prompt's answer, else the tool's, else the default."""
    user = context.get("user", {})
    answers = user.get("prompts", [])
    if prompts <= len(answers) and answers[prompts - 1] is not None:
        return answers[prompts - 1]
    return user.get("tools", {}).get(tool, user.get("default", "approve"))


if "protocolVersion" not in send("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                "clientInfo": {"name": "minimal-adapter", "version": "0.1"}}):
    raise SystemExit("minimal-adapter: the server refused initialize (it speaks only the stateless era)")
send("notifications/initialized", notification=True)
tools = {tool["name"]: tool for tool in send("tools/list").get("tools", [])}
for step in context["task"]:
    if "tool" not in step:
        continue  # this sketch has one session: {"newSession": true} is not handled
    name, server_name = step["tool"], step.get("server", "main")
    if needs_confirmation(tools.get(name, {})):
        prompts += 1
        event("confirmation_requested", tool=name, server=server_name, hints=["destructiveHint"],
              reasons=["the specification's hints do not say read-only or non-destructive"])
        decision = user_answer(name)
        event("user_decision", tool=name, server=server_name, decision=decision)
        if decision != "approve":
            continue
    send("tools/call", {"name": name, "arguments": step.get("arguments", {})})
server.stdin.close()
server.wait()
