#pragma once
// The real MCP hosts certify drives through adapters of its own (hosts/*.mjs, compiled in): each
// runs the host on a scenario's task against the scripted model endpoint and reports what the
// host's approval channel showed, under the adapter contract. The host decides every call.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mcp_hints::conformance {

struct Host {
  std::string name;        // as --host names it: claude-code
  std::string title;       // Claude Code
  std::string executable;  // looked up on PATH when no path is given: claude
  // A host that is a library an app is built on (the adapter is that app): its npm package, found
  // beside a node_modules/.bin on PATH when no folder is given; executable is then empty.
  std::string package;
  std::string binary_env;  // how the adapter is told the executable (or package folder): MCP_HINTS_CLAUDE
  // What the adapter cannot see or do, said in the report. The eras a host speaks are measured
  // by each run, not declared here.
  std::string limits;
  // A host acts for the one user who runs it: scenarios of several authorization contexts (a
  // gateway's) do not apply to it.
  bool one_user = true;
};

// Every host an adapter is built in for, by name.
const std::vector<Host>& known_hosts();
// The host named `name`, or nothing.
const Host* find_host(const std::string& name);

// The client command that runs `host`'s adapter with Node: the adapter written into `folder`, the
// host's executable (`binary`, a path) handed to it in the environment. Throws Error (bad input)
// when the adapter cannot be written.
std::string host_client_command(const Host& host, const std::filesystem::path& folder,
                                const std::filesystem::path& binary, const std::filesystem::path& node);

// `name` found on PATH (or `name` itself when it holds a '/' and is executable), or nothing.
std::optional<std::filesystem::path> find_executable(const std::string& name);

// Where `host` is installed: `given` (its executable, or its package folder) when not empty and
// usable, else its executable on PATH, or its package beside a node_modules/.bin on PATH.
std::optional<std::filesystem::path> find_host(const Host& host, const std::string& given);

// The host's version: the first line `binary --version` prints ("codex-cli 0.171.0"), within 30
// seconds, or a package's name and package.json version; "unknown" when neither says.
std::string host_version(const Host& host, const std::filesystem::path& installed);

}  // namespace mcp_hints::conformance
