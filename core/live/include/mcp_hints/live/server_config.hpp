#pragma once
// The MCP servers users keep in their hosts' config files, read as check-server targets:
// `mcpServers` (Claude Desktop's claude_desktop_config.json, Claude Code's .mcp.json and
// ~/.claude.json, Cursor's mcp.json), `servers` (VS Code's mcp.json) and `[mcp_servers.NAME]`
// (Codex's config.toml).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

// Where a config is read from and what its variables expand to: the user's home, the project
// (the current folder), and the environment.
struct ConfigPlaces {
  std::filesystem::path home;
  std::filesystem::path project;
  std::function<std::optional<std::string>(const std::string&)> variable;  // nullopt: not set
  std::optional<std::filesystem::path> codex_home;                         // $CODEX_HOME, if set

  // The places of this process: $HOME, the current folder, its environment.
  static ConfigPlaces of_this_process();
};

struct ConfiguredServer {
  std::string name;    // as its config names it
  std::string config;  // the file it was read from
  ServerTarget target;
  // Why it cannot be checked as written (an unset variable, a transport mcp-hints does not speak):
  // its part of the report says so, and the others still run.
  std::string unusable;
  std::string disabled;  // why it is left out on purpose ("disabled": true, enabled = false)
  // Every value of its env and headers, and every value a variable put anywhere in it: each may be
  // a secret, so none is ever shown.
  std::vector<std::string> secrets;
};

// Whether two configured servers are the same server (one config repeating another's): the same
// name, target and usability, whatever config each came from.
bool same_server(const ConfiguredServer& a, const ConfiguredServer& b);

struct ServerConfig {
  std::string path;
  std::string shape;  // "mcpServers", "servers" or "mcp_servers"
  std::vector<ConfiguredServer> servers;
};

// Reads one config file: JSON (comments allowed, as VS Code allows them) with `mcpServers` or
// `servers` (also under `mcp`, as in VS Code's settings.json, and for the project in
// ~/.claude.json's `projects`), or TOML with `[mcp_servers.NAME]`. Variables are expanded as the
// hosts expand them in JSON configs: ${VAR}, ${VAR:-default}, ${env:VAR}, ${userHome},
// ${workspaceFolder}; Codex expands none. Throws InputError when the file cannot be read or holds
// no server table.
ServerConfig read_server_config(const std::filesystem::path& path, const ConfigPlaces& places);

// The usual config files of the user and of the project, in the order they are read, each with
// whether it exists.
std::vector<std::filesystem::path> usual_server_configs(const ConfigPlaces& places);

// `text` with every secret in it replaced by "[redacted]" (the longest first).
std::string redacted(std::string text, const std::vector<std::string>& secrets);
// The same over every text of a report a server may have put a secret in.
void redact(LintReport& report, const std::vector<std::string>& secrets);

}  // namespace mcp_hints
