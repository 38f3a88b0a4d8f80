#include "mcp_hints/live/server_config.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <system_error>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"

namespace mcp_hints {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxConfigBytes = std::size_t{4} << 20;  // configs are a few KiB; a bound all the same

// A value worth hiding: a long one, or one whose name says it is a credential.
bool secret_worthy(const std::string& name, const std::string& value) {
  if (value.size() >= 8) return true;
  static const std::regex credential("token|key|secret|pass|auth|cred|cookie|session|pat$", std::regex::icase);
  return value.size() >= 3 && std::regex_search(name, credential);
}

// The folder a config's relative paths and ${workspaceFolder} stand for: the project's, for a
// config in its .vscode, .cursor or .codex folder; else the config's own.
fs::path base_folder(const fs::path& config, const ConfigPlaces& places) {
  const fs::path folder = fs::absolute(config).parent_path();
  const auto name = folder.filename().string();
  if (name == ".vscode" || name == ".cursor" || name == ".codex") return folder.parent_path();
  return folder.empty() ? places.project : folder;
}

// One server's entry, read as its host reads it: variables expanded, the transport chosen.
class EntryReader {
 public:
  EntryReader(ConfiguredServer& server, const ConfigPlaces& places, const fs::path& config, bool expands)
      : server_(server), places_(places), workspace_(base_folder(config, places)), expands_(expands) {}

  // A string of the entry with its variables expanded; nullopt (and the server unusable) when one
  // cannot be. `name` says which secret it would be.
  std::optional<std::string> text(const std::string& value, const std::string& where, const std::string& name = "") {
    if (!expands_) return value;
    std::string out;
    std::size_t at = 0;
    while (true) {
      const auto start = value.find("${", at);
      if (start == std::string::npos) break;
      const auto end = value.find('}', start);
      if (end == std::string::npos) break;
      out += value.substr(at, start - at);
      const std::string inner = value.substr(start + 2, end - start - 2);
      bool from_environment = false;
      const auto expanded = variable(inner, where, from_environment);
      if (!expanded) return std::nullopt;
      // The environment's values may be secrets; a default written in the config is one only by its name.
      if ((from_environment && secret_worthy(name.empty() ? inner : name, *expanded)) ||
          (!name.empty() && secret_worthy(name, *expanded) && !expanded->empty()))
        server_.secrets.push_back(*expanded);
      out += *expanded;
      at = end + 1;
    }
    return out + value.substr(at);
  }

  void unusable(const std::string& why) {
    if (server_.unusable.empty()) server_.unusable = why;
  }

 private:
  std::optional<std::string> variable(const std::string& inner, const std::string& where, bool& from_environment) {
    if (inner == "userHome") return places_.home.string();
    if (inner == "workspaceFolder") return workspace_.string();
    if (inner == "pathSeparator" || inner == "/") return std::string("/");
    if (inner.starts_with("input:")) {
      unusable(where + " asks for the input " + inner.substr(6) +
               ", which only its host can prompt for: write the value in a copy of the config to check this server");
      return std::nullopt;
    }
    std::string name = inner, fallback;
    bool has_fallback = false;
    if (name.starts_with("env:")) name = name.substr(4);
    if (const auto dash = name.find(":-"); dash != std::string::npos) {
      fallback = name.substr(dash + 2);
      name = name.substr(0, dash);
      has_fallback = true;
    }
    static const std::regex variable_name("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(name, variable_name)) {
      unusable(where + ": ${" + inner + "} is no variable mcp-hints expands");
      return std::nullopt;
    }
    if (auto value = places_.variable ? places_.variable(name) : std::nullopt) {
      from_environment = true;
      return value;
    }
    if (has_fallback) return fallback;
    unusable(where + ": the variable " + name + " is not set");
    return std::nullopt;
  }

  ConfiguredServer& server_;
  const ConfigPlaces& places_;
  fs::path workspace_;
  bool expands_;
};

void read_json_entry(const json& entry, ConfiguredServer& server, const ConfigPlaces& places, const fs::path& config) {
  EntryReader reader(server, places, config, true);
  if (!entry.is_object()) return reader.unusable("its entry is " + shown(entry, 40) + ", not an object");
  if (entry.value("disabled", json()) == true) {
    server.disabled = "\"disabled\": true";
    return;
  }
  const auto string_of = [&](const char* key) -> std::optional<std::string> {
    if (!entry.contains(key)) return std::nullopt;
    if (!entry[key].is_string()) {
      reader.unusable(std::string(key) + " is " + shown(entry[key], 40) + ", not a string");
      return std::nullopt;
    }
    return reader.text(entry[key].get<std::string>(), key);
  };
  const auto type = entry.value("type", json("")).is_string() ? entry.value("type", std::string()) : std::string("?");
  const auto url = entry.contains("url")         ? string_of("url")
                   : entry.contains("serverUrl") ? string_of("serverUrl")
                                                 : std::nullopt;
  if (type == "sse")
    return reader.unusable("type sse is the HTTP+SSE transport of 2024-11-05, which mcp-hints does not speak");
  if (!type.empty() && type != "stdio" && type != "http" && type != "streamable-http" && type != "streamableHttp")
    return reader.unusable("type " + shown(entry["type"], 40) + " is no transport mcp-hints knows");
  if (url && (type.empty() || type != "stdio")) {
    server.target.url = *url;
    if (entry.contains("headers")) {
      if (!entry["headers"].is_object()) return reader.unusable("headers is not an object");
      for (const auto& [name, value] : entry["headers"].items()) {
        if (!value.is_string()) return reader.unusable("headers." + name + " is not a string");
        auto expanded = reader.text(value.get<std::string>(), "headers." + name, name);
        if (!expanded) return;
        if (!expanded->empty()) server.secrets.push_back(*expanded);
        server.target.headers.emplace_back(name, *expanded);
      }
    }
    return;
  }
  const auto command = string_of("command");
  if (!server.unusable.empty()) return;
  if (!command || command->empty())
    return reader.unusable(type == "http" ? "type http without a url" : "it names neither a command nor a url");
  server.target.command.push_back(*command);
  if (entry.contains("args")) {
    if (!entry["args"].is_array()) return reader.unusable("args is not an array");
    for (const auto& arg : entry["args"]) {
      if (!arg.is_string()) return reader.unusable("args holds " + shown(arg, 40) + ", not a string");
      auto expanded = reader.text(arg.get<std::string>(), "args");
      if (!expanded) return;
      server.target.command.push_back(*expanded);
    }
  }
  if (entry.contains("envFile")) {
    const auto file = string_of("envFile");
    if (!file) return;
    std::ifstream in(fs::path(*file).is_relative() ? base_folder(config, places) / *file : fs::path(*file));
    if (!in) return reader.unusable("envFile " + *file + " cannot be read");
    for (std::string line; std::getline(in, line);) {
      const auto eq = line.find('=');
      if (line.empty() || line[0] == '#' || eq == std::string::npos || eq == 0) continue;
      std::string value = line.substr(eq + 1);
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
        value = value.substr(1, value.size() - 2);
      if (secret_worthy(line.substr(0, eq), value)) server.secrets.push_back(value);
      server.target.env.emplace_back(line.substr(0, eq), value);
    }
  }
  if (entry.contains("env")) {
    if (!entry["env"].is_object()) return reader.unusable("env is not an object");
    for (const auto& [name, value] : entry["env"].items()) {
      if (!value.is_string()) return reader.unusable("env." + name + " is " + shown(value, 40) + ", not a string");
      auto expanded = reader.text(value.get<std::string>(), "env." + name, name);
      if (!expanded) return;
      if (secret_worthy(name, *expanded)) server.secrets.push_back(*expanded);
      server.target.env.emplace_back(name, *expanded);
    }
  }
  if (const auto cwd = string_of("cwd"); cwd && !cwd->empty())
    server.target.working_dir = fs::path(*cwd).is_relative() ? (base_folder(config, places) / *cwd).string() : *cwd;
}

// Codex's [mcp_servers.NAME]: command, args, env, cwd; or url, http_headers, env_http_headers,
// bearer_token_env_var. Codex expands no variable in them.
void read_toml_entry(const toml::node& node, ConfiguredServer& server, const ConfigPlaces& places,
                     const fs::path& config) {
  EntryReader reader(server, places, config, false);
  const toml::table* entry = node.as_table();
  if (!entry) return reader.unusable("its entry is not a table");
  if (const auto enabled = (*entry)["enabled"].value<bool>(); enabled && !*enabled) {
    server.disabled = "enabled = false";
    return;
  }
  const auto string_of = [&](const char* key) -> std::optional<std::string> {
    const toml::node* value = entry->get(key);
    if (!value) return std::nullopt;
    if (!value->is_string()) {
      reader.unusable(std::string(key) + " is not a string");
      return std::nullopt;
    }
    return value->value<std::string>();
  };
  const auto table_of = [&](const char* key, const std::function<bool(const std::string&, const std::string&)>& each) {
    const toml::node* value = entry->get(key);
    if (!value) return true;
    const toml::table* table = value->as_table();
    if (!table) {
      reader.unusable(std::string(key) + " is not a table");
      return false;
    }
    for (const auto& [name, item] : *table) {
      const auto text = item.value<std::string>();
      if (!item.is_string() || !text) {
        reader.unusable(std::string(key) + "." + std::string(name.str()) + " is not a string");
        return false;
      }
      if (!each(std::string(name.str()), *text)) return false;
    }
    return true;
  };
  const auto variable = [&](const std::string& where, const std::string& name) -> std::optional<std::string> {
    auto value = places.variable ? places.variable(name) : std::nullopt;
    if (!value) reader.unusable(where + ": the variable " + name + " is not set");
    return value;
  };
  if (const auto url = string_of("url")) {
    server.target.url = *url;
    const bool headers_read = table_of("http_headers",
                                       [&](const std::string& name, const std::string& value) {
                                         server.secrets.push_back(value);
                                         server.target.headers.emplace_back(name, value);
                                         return true;
                                       }) &&
                              table_of("env_http_headers", [&](const std::string& name, const std::string& from) {
                                const auto value = variable("env_http_headers." + name, from);
                                if (!value) return false;
                                server.secrets.push_back(*value);
                                server.target.headers.emplace_back(name, *value);
                                return true;
                              });
    if (!headers_read) return;
    if (const auto from = string_of("bearer_token_env_var")) {
      const auto token = variable("bearer_token_env_var", *from);
      if (!token) return;
      server.secrets.push_back(*token);
      server.target.headers.emplace_back("Authorization", "Bearer " + *token);
    }
    return;
  }
  const auto command = string_of("command");
  if (!server.unusable.empty()) return;
  if (!command || command->empty()) return reader.unusable("it names neither a command nor a url");
  server.target.command.push_back(*command);
  if (const toml::node* args = entry->get("args")) {
    const toml::array* list = args->as_array();
    if (!list) return reader.unusable("args is not an array");
    for (const auto& arg : *list) {
      const auto text = arg.value<std::string>();
      if (!arg.is_string() || !text) return reader.unusable("args holds a value that is not a string");
      server.target.command.push_back(*text);
    }
  }
  if (!table_of("env", [&](const std::string& name, const std::string& value) {
        if (secret_worthy(name, value)) server.secrets.push_back(value);
        server.target.env.emplace_back(name, value);
        return true;
      }))
    return;
  if (const auto cwd = string_of("cwd"); cwd && !cwd->empty())
    server.target.working_dir = fs::path(*cwd).is_relative() ? (base_folder(config, places) / *cwd).string() : *cwd;
}

std::string read_config_text(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path.string() + ": is a directory, not a config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open");
  InputLimits limits;
  limits.max_bytes = kMaxConfigBytes;
  std::string text = read_text(in, limits);
  if (text.size() > kMaxConfigBytes)
    throw InputError(path.string() + ": larger than " + std::to_string(kMaxConfigBytes >> 20) +
                     " MiB: no MCP config is this big");
  return text;
}

}  // namespace

ConfigPlaces ConfigPlaces::of_this_process() {
  ConfigPlaces places;
  const char* home = std::getenv("HOME");
  places.home = home && *home ? fs::path(home) : fs::path();
  std::error_code ec;
  places.project = fs::current_path(ec);
  places.variable = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  if (const char* codex = std::getenv("CODEX_HOME"); codex && *codex) places.codex_home = fs::path(codex);
  return places;
}

bool same_server(const ConfiguredServer& a, const ConfiguredServer& b) {
  return a.name == b.name && a.unusable == b.unusable && a.target.command == b.target.command &&
         a.target.url == b.target.url && a.target.env == b.target.env && a.target.headers == b.target.headers &&
         a.target.working_dir == b.target.working_dir;
}

ServerConfig read_server_config(const fs::path& path, const ConfigPlaces& places) {
  ServerConfig config{path.string(), "", {}};
  const std::string text = read_config_text(path);
  const auto add = [&](const std::string& name) -> ConfiguredServer& {
    return config.servers.emplace_back(ConfiguredServer{name, path.string(), {}, "", "", {}});
  };
  if (path.extension() == ".toml") {
    toml::table document;
    try {
      document = toml::parse(text, path.string());
    } catch (const toml::parse_error& e) {
      const auto& where = e.source().begin;
      throw InputError(path.string() + ": not valid TOML: line " + std::to_string(where.line) + ", column " +
                       std::to_string(where.column) + ": " + std::string(e.description()));
    }
    const toml::table* servers = document["mcp_servers"].as_table();
    if (!servers) throw InputError(path.string() + ": no [mcp_servers] table: not an MCP config mcp-hints reads");
    config.shape = "mcp_servers";
    for (const auto& [name, entry] : *servers) read_toml_entry(entry, add(std::string(name.str())), places, path);
    return config;
  }
  json document;
  try {
    document = json::parse(text, nullptr, true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    throw InputError(path.string() + ": " + describe_parse_error(e));
  }
  const auto read_table = [&](const json& table, const std::string& key) {
    if (!table.is_object()) throw InputError(path.string() + ": " + key + " is not an object");
    for (const auto& [name, entry] : table.items()) read_json_entry(entry, add(name), places, path);
  };
  if (!document.is_object()) throw InputError(path.string() + ": not a JSON object: not an MCP config");
  bool found = false;
  for (const char* key : {"mcpServers", "servers"}) {
    const json* table = document.contains(key) ? &document[key]
                        : document.contains("mcp") && document["mcp"].is_object() && document["mcp"].contains(key)
                            ? &document["mcp"][key]
                            : nullptr;
    if (!table) continue;
    config.shape = key;
    read_table(*table, key);
    found = true;
    break;
  }
  // ~/.claude.json keeps each project's own servers (Claude Code's local scope) under its path.
  if (document.contains("projects") && document["projects"].is_object()) {
    const std::string project = places.project.string();
    if (document["projects"].contains(project) && document["projects"][project].is_object() &&
        document["projects"][project].contains("mcpServers")) {
      config.shape = "mcpServers";
      read_table(document["projects"][project]["mcpServers"], "projects." + project + ".mcpServers");
      found = true;
    }
  }
  if (!found && document.contains("suppressions"))
    throw InputError(path.string() +
                     ": holds suppressions: it is mcp-hints' own suppressions file, not a host's MCP config");
  if (!found) throw InputError(path.string() + ": no mcpServers or servers object: not an MCP config mcp-hints reads");
  return config;
}

std::vector<fs::path> usual_server_configs(const ConfigPlaces& places) {
  std::vector<fs::path> out;
  const fs::path& home = places.home;
  if (!home.empty()) {
    out.push_back(home / ".claude.json");
    out.push_back(home / ".config/Claude/claude_desktop_config.json");
    out.push_back(home / "Library/Application Support/Claude/claude_desktop_config.json");
    out.push_back(home / ".cursor/mcp.json");
    out.push_back(home / ".config/Code/User/mcp.json");
    out.push_back(home / "Library/Application Support/Code/User/mcp.json");
  }
  if (places.codex_home)
    out.push_back(*places.codex_home / "config.toml");
  else if (!home.empty())
    out.push_back(home / ".codex/config.toml");
  if (!places.project.empty()) {
    out.push_back(places.project / ".mcp.json");
    out.push_back(places.project / ".cursor/mcp.json");
    out.push_back(places.project / ".vscode/mcp.json");
    out.push_back(places.project / ".codex/config.toml");
  }
  // A project in the home folder has its files listed once.
  std::vector<fs::path> unique;
  for (auto& path : out)
    if (std::find(unique.begin(), unique.end(), path) == unique.end()) unique.push_back(std::move(path));
  return unique;
}

std::string redacted(std::string text, const std::vector<std::string>& secrets) {
  std::vector<std::string> longest_first = secrets;
  std::sort(longest_first.begin(), longest_first.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& secret : longest_first) {
    if (secret.empty()) continue;
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 10))
      text.replace(at, secret.size(), "[redacted]");
  }
  return text;
}

void redact(LintReport& report, const std::vector<std::string>& secrets) {
  if (secrets.empty()) return;
  const auto hide = [&](std::string& text) { text = redacted(std::move(text), secrets); };
  hide(report.diagnostics);
  hide(report.protocol_fallback);
  if (report.incomplete) hide(*report.incomplete);
  report.findings.update([&](Finding& finding) {
    hide(finding.message);
    hide(finding.file);
  });
  for (auto& file : report.files) {
    hide(file.file);
    if (file.error) hide(*file.error);
  }
  for (auto& call : report.calls) hide(call.detail);
}

}  // namespace mcp_hints
