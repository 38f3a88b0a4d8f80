#include "mcp_hints/conformance/hosts.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <span>

#include <boost/process/search_path.hpp>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/wire/child_process.hpp"

namespace mcp_hints {
std::span<const EmbeddedFile> embedded_host_adapters();
}

namespace mcp_hints::conformance {

namespace fs = std::filesystem;

const std::vector<Host>& known_hosts() {
  static const std::vector<Host> hosts = {
      {"claude-code", "Claude Code", "claude", "", "MCP_HINTS_CLAUDE",
       "the permission prompt tool is never shown the hints, and an elicitation hook names no tool (the prompt is "
       "taken for the server's last approved call); one user for all calls (no authorization contexts)"},
      {"codex", "Codex CLI", "codex", "", "MCP_HINTS_CODEX",
       "a server's own elicitation names no tool (the prompt is taken for the server's last approved call); a call "
       "Codex ends unasked and without a result is taken for a refusal; one user for all calls (no authorization "
       "contexts)"},
      {"openai-agents", "OpenAI Agents SDK app", "", "@openai/agents", "MCP_HINTS_OPENAI_AGENTS",
       "the SDK reads no hint, so the app's policy is the adapter's: every MCP tool call needs approval "
       "(needsApproval); an interruption shows no hint; one user for all calls (no authorization contexts)"},
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
  if (!find_embedded(embedded_host_adapters(), file))
    throw Error(Error::Category::bad_input, "no adapter is built in for host " + host.name);
  // Every adapter file goes beside it: the adapters import what they share (host-adapter.mjs).
  std::error_code ec;
  fs::create_directories(folder, ec);
  for (const auto& embedded : embedded_host_adapters()) {
    const fs::path path = fs::absolute(folder / embedded.name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << embedded.content;
    out.close();
    if (!out)
      throw Error(Error::Category::incomplete, "cannot write the " + host.title + " adapter to " + path.string());
  }
  return host.binary_env + "=" + shell_quote(binary.string()) + " " + shell_quote(node.string()) + " " +
         shell_quote(fs::absolute(folder / file).string());
}

std::optional<fs::path> find_executable(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 && !fs::is_directory(name) ? std::optional<fs::path>(fs::absolute(name))
                                                                        : std::nullopt;
  const auto found = boost::process::search_path(name);
  if (found.empty()) return std::nullopt;
  return fs::absolute(found.string());
}

std::optional<fs::path> find_host(const Host& host, const std::string& given) {
  std::error_code ec;
  if (!host.package.empty()) {
    const auto is_package = [&](const fs::path& folder) { return fs::is_regular_file(folder / "package.json", ec); };
    if (!given.empty()) return is_package(given) ? std::optional<fs::path>(fs::absolute(given)) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t start = 0; start < dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const fs::path dir = dirs.substr(start, end - start);
      if (dir.filename() == ".bin" && is_package(dir.parent_path() / host.package))
        return fs::absolute(dir.parent_path() / host.package);
      start = end + 1;
    }
    return std::nullopt;
  }
  return find_executable(given.empty() ? host.executable : given);
}

std::string host_version(const Host& host, const fs::path& installed) {
  try {
    if (!host.package.empty()) {
      std::ifstream in(installed / "package.json", std::ios::binary);
      const auto manifest = nlohmann::json::parse(in, nullptr, false);
      if (!manifest.is_object() || !manifest.contains("version") || !manifest["version"].is_string()) return "unknown";
      return printable(host.package + " " + manifest["version"].get<std::string>(), 200);
    }
    ProcessOptions options;
    options.argv = {installed.string(), "--version"};
    ChildProcess child(options);
    const Deadline deadline = Clock::now() + std::chrono::seconds(30);
    std::string out;
    while (out.find('\n') == std::string::npos && out.size() < 4096 &&
           child.read(out, 4096 - out.size(), deadline) == ChildProcess::ReadStatus::data) {
    }
    child.kill_group();
    const std::string line = printable(out.substr(0, out.find('\n')), 200);
    return line.find_first_not_of(" \t\r") == std::string::npos ? "unknown" : line;
  } catch (const std::exception&) {
    return "unknown";
  }
}

}  // namespace mcp_hints::conformance
