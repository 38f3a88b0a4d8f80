#include "mcp_hints/conformance/hosts.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <span>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/error.hpp"

namespace mcp_hints {
std::span<const EmbeddedFile> embedded_host_adapters();
}

namespace mcp_hints::conformance {

namespace fs = std::filesystem;

const std::vector<Host>& known_hosts() {
  static const std::vector<Host> hosts = {
      {"claude-code", "Claude Code", "claude", "MCP_HINTS_CLAUDE", "both (it probes server/discover, then initialize)",
       "the permission prompt tool is never shown the hints, and an elicitation hook names no tool (the prompt is "
       "taken for the server's last approved call); one user for all calls (no authorization contexts)"},
  };
  return hosts;
}

const Host* find_host(const std::string& name) {
  for (const auto& host : known_hosts())
    if (host.name == name) return &host;
  return nullptr;
}

std::string host_client_command(const Host& host, const fs::path& folder, const fs::path& binary,
                                const fs::path& node) {
  const std::string file = host.name + ".mjs";
  if (const auto adapter = find_embedded(embedded_host_adapters(), file)) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    const fs::path path = fs::absolute(folder / file);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << *adapter;
    out.close();
    if (!out)
      throw Error(Error::Category::incomplete, "cannot write the " + host.title + " adapter to " + path.string());
    return host.binary_env + "=" + shell_quote(binary.string()) + " " + shell_quote(node.string()) + " " +
           shell_quote(path.string());
  }
  throw Error(Error::Category::bad_input, "no adapter is built in for host " + host.name);
}

std::optional<fs::path> find_executable(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<fs::path>(fs::absolute(name)) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate =
        fs::path(dirs.substr(start, end - start).empty() ? "." : dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return fs::absolute(candidate);
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace mcp_hints::conformance
