#pragma once
// check-server: a live server's catalog through every lint check, plus the protocol,
// stability, list_changed and result checks only a live server allows.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/live/server_config.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

struct ToolCallRequest {
  std::string tool;
  nlohmann::json arguments;
};

// One authorization context: what a user of the server presents. HTTP: headers sent with every
// request (e.g. Authorization); stdio: variables in the server's environment (a stdio server
// takes its credentials from there). Never shown: its values may be secrets.
struct AuthContext {
  HttpHeaders headers;
  std::vector<std::pair<std::string, std::string>> env;
};

struct CheckServerOptions {
  LintOptions lint;
  // The tools are linted against the specification's revision the server speaks (the latest one
  // mcp-hints knows that is not later), not lint.spec_revision: for a run that names no revision.
  bool lint_revision_spoken = false;
  std::chrono::milliseconds timeout{30000};          // the whole run
  std::chrono::milliseconds request_timeout{10000};  // one request
  std::chrono::milliseconds observe_window{1000};    // waiting for notifications/tools/list_changed
  std::vector<ToolCallRequest> calls;                // opt-in tool calls
  bool allow_side_effects = false;                   // call tools whose hints do not say read-only
  ProtocolChoice protocol;                           // the era to speak (automatic: server/discover, else initialize)
  // The sessions speak in the first context; with two or more, the catalog is listed in each
  // (stateless era: a public cacheScope with hints that differ between them is a finding).
  std::vector<AuthContext> auth_contexts;
  TransportLimits transport;
  std::function<void(const std::string&)> progress;  // told each step, e.g. to show on stderr
  std::string label;                                 // what the report calls the server ("": its command or URL)
};

// A requested tool call refused before anything is called: it names no listed tool, or side
// effects are not allowed and the tool's hints do not say read-only. why() says which in the
// tool's terms (the hints, or their absence and the specification's default), never how to
// allow it: that is the caller's option.
class CallRefused : public Error {
 public:
  CallRefused(std::string tool, std::string why, bool side_effects)
      : Error(Category::bad_input, "tools/call " + tool + ": " + why),
        tool_(std::move(tool)),
        why_(std::move(why)),
        side_effects_(side_effects) {}
  const std::string& tool() const { return tool_; }
  const std::string& why() const { return why_; }
  bool side_effects() const { return side_effects_; }  // allowing side effects would let it through

 private:
  std::string tool_, why_;
  bool side_effects_;
};

// Runs every check against the target. Findings, incompleteness and the server's diagnostics
// end up in the report; throws CallRefused for a refused call (nothing is called then).
LintReport check_server(const ServerTarget& target, const CheckServerOptions& options);

// Checks the servers of configs (check-server --config), up to `jobs` at once, each as
// check_server does with `options` (no call: a config's tool names are its own); one report per
// server, in their order, named by the server (and its config where two share a name), each
// redacted of the server's secrets. A server that cannot be checked as configured, or cannot start,
// has a report that says so (incomplete), and the others still run. Disabled servers are left out.
std::vector<LintReport> check_servers(const std::vector<ConfiguredServer>& servers, const CheckServerOptions& options,
                                      std::size_t jobs);

}  // namespace mcp_hints
