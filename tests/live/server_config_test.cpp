// check-server --config: the five shapes of hosts' config files, their variables, the servers
// they name checked together (one broken), and their secrets kept out of every report.
#include "mcp_hints/live/server_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "mcp_hints/json/input.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using test_support::run_cli;
using test_support::shell_quote;
namespace fs = std::filesystem;
using namespace mcp_hints;

namespace {

const fs::path kConfigs = test_support::fixture("configs");

// A process's places, with its variables from a table.
ConfigPlaces places_with(std::map<std::string, std::string> variables, fs::path project = kConfigs) {
  ConfigPlaces places;
  places.home = "/home/someone";
  places.project = std::move(project);
  places.variable = [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
    const auto it = variables.find(name);
    return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  return places;
}

const std::map<std::string, std::string> kVariables = {{"SAMPLE_SERVER", "/bin/sample"},
                                                       {"CATALOGS", "/catalogs"},
                                                       {"REMOTE_TOKEN", "remote-token-0002"},
                                                       {"CURSOR_TOKEN", "cursor-secret-0004"}};

const ConfiguredServer& named(const ServerConfig& config, const std::string& name) {
  const auto it = std::find_if(config.servers.begin(), config.servers.end(),
                               [&](const ConfiguredServer& s) { return s.name == name; });
  if (it == config.servers.end()) throw std::runtime_error(config.path + " has no server " + name);
  return *it;
}

bool holds(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

using Env = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST(ServerConfig, ClaudeDesktopsMcpServersWithTheirEnvironment) {
  const auto config = read_server_config(kConfigs / "claude_desktop_config.json", places_with(kVariables));
  EXPECT_EQ(config.shape, "mcpServers");
  ASSERT_EQ(config.servers.size(), 1u);
  const auto& server = config.servers.front();
  EXPECT_EQ(server.name, "catalog");
  EXPECT_EQ(server.target.command,
            (std::vector<std::string>{"/bin/sample", "--catalog", "/catalogs/good-catalog.json"}));
  EXPECT_EQ(server.target.env, (Env{{"CATALOG_API_KEY", "desktop-secret-0001"}}));
  EXPECT_TRUE(holds(server.secrets, "desktop-secret-0001"));
  EXPECT_TRUE(server.unusable.empty()) << server.unusable;
}

TEST(ServerConfig, ClaudeCodesProjectFileWithTransportsDefaultsAndADisabledServer) {
  const auto config = read_server_config(kConfigs / ".mcp.json", places_with(kVariables));
  ASSERT_EQ(config.servers.size(), 4u);
  const auto& good = named(config, "good");
  EXPECT_EQ(good.target.command.back(), "both");  // ${PROTOCOL:-both}: the default
  const auto& remote = named(config, "remote");
  EXPECT_EQ(remote.target.url, "http://127.0.0.1:9/mcp");
  EXPECT_TRUE(remote.target.command.empty());
  EXPECT_EQ(remote.target.headers, (HttpHeaders{{"Authorization", "Bearer remote-token-0002"}}));
  EXPECT_TRUE(holds(remote.secrets, "remote-token-0002"));
  EXPECT_TRUE(holds(remote.secrets, "Bearer remote-token-0002"));
  EXPECT_FALSE(holds(remote.secrets, "http://127.0.0.1:9/mcp")) << "a default written in the config is no secret";
  EXPECT_NE(named(config, "old-remote").unusable.find("type sse"), std::string::npos);
  EXPECT_EQ(named(config, "off").disabled, "\"disabled\": true");
  // Without the token set, the remote server cannot be checked as configured, and says why.
  auto without = kVariables;
  without.erase("REMOTE_TOKEN");
  const auto unset = read_server_config(kConfigs / ".mcp.json", places_with(without));
  EXPECT_NE(named(unset, "remote").unusable.find("the variable REMOTE_TOKEN is not set"), std::string::npos);
  EXPECT_TRUE(named(unset, "good").unusable.empty());
}

TEST(ServerConfig, CursorsEnvVariables) {
  const auto config = read_server_config(kConfigs / ".cursor/mcp.json", places_with(kVariables));
  const auto& bad = named(config, "bad");
  EXPECT_EQ(bad.target.command.front(), "/bin/sample");
  EXPECT_EQ(bad.target.env, (Env{{"GITHUB_TOKEN", "cursor-secret-0004"}}));
  EXPECT_TRUE(holds(bad.secrets, "cursor-secret-0004"));
}

TEST(ServerConfig, VsCodesServersWithCommentsWorkspaceAndInputs) {
  const auto config = read_server_config(kConfigs / ".vscode/mcp.json", places_with(kVariables, "/elsewhere"));
  EXPECT_EQ(config.shape, "servers");
  // ${workspaceFolder} is the folder .vscode is in, wherever the run is.
  EXPECT_EQ(named(config, "good").target.command.back(), (kConfigs / "catalogs/good-catalog.json").string());
  EXPECT_NE(named(config, "needs-input").unusable.find("asks for the input api-key"), std::string::npos);
}

TEST(ServerConfig, CodexsTomlTablesWithoutExpansion) {
  const auto config = read_server_config(kConfigs / "config.toml", places_with({{"CODEX_REMOTE_TOKEN", "tok-0005"}}));
  EXPECT_EQ(config.shape, "mcp_servers");
  ASSERT_EQ(config.servers.size(), 3u);
  const auto& good = named(config, "good");
  EXPECT_EQ(good.target.command,
            (std::vector<std::string>{"sample_server", "--catalog", "catalogs/good-catalog.json"}));
  EXPECT_EQ(fs::path(good.target.working_dir).lexically_normal(), (kConfigs / "").lexically_normal());
  EXPECT_TRUE(holds(good.secrets, "codex-secret-0003"));
  const auto& remote = named(config, "remote");
  EXPECT_EQ(remote.target.headers,
            (HttpHeaders{{"X-Team", "conformance-team-header"}, {"Authorization", "Bearer tok-0005"}}));
  EXPECT_TRUE(holds(remote.secrets, "tok-0005"));
  EXPECT_EQ(named(config, "off").disabled, "enabled = false");
  const auto unset = read_server_config(kConfigs / "config.toml", places_with({}));
  EXPECT_NE(named(unset, "remote").unusable.find("CODEX_REMOTE_TOKEN is not set"), std::string::npos);
}

TEST(ServerConfig, ClaudeCodesUserFileGivesTheProjectsOwnServers) {
  test_support::TempDir dir;
  const auto file = dir.write(".claude.json", R"({"numStartups": 3,
    "mcpServers": {"everywhere": {"command": "a"}},
    "projects": {"/work/p": {"mcpServers": {"here": {"command": "b"}}}, "/work/q": {"mcpServers": {"there": {"command": "c"}}}}})");
  const auto config = read_server_config(file, places_with({}, "/work/p"));
  ASSERT_EQ(config.servers.size(), 2u);
  EXPECT_EQ(config.servers[0].name, "everywhere");
  EXPECT_EQ(config.servers[1].name, "here");
}

TEST(ServerConfig, WhatCannotBeReadIsRefusedWithItsReason) {
  test_support::TempDir dir;
  const auto refused = [&](const std::string& name, const std::string& content, const std::string& says) {
    const auto file = dir.write(name, content);
    try {
      read_server_config(file, places_with({}));
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    }
  };
  refused("a.json", "{\"mcpServers\": {", "not valid JSON");
  refused("b.json", "{\"tools\": []}", "no mcpServers or servers object");
  refused("c.json", "[1, 2]", "not a JSON object");
  refused("d.json", "{\"mcpServers\": []}", "mcpServers is not an object");
  refused("e.toml", "[mcp_servers.x\ncommand = 1", "not valid TOML: line 1");
  refused("f.toml", "model = \"m\"\n", "no [mcp_servers] table");
  EXPECT_THROW(read_server_config(dir.path() / "missing.json", places_with({})), InputError);
  EXPECT_THROW(read_server_config(dir.path(), places_with({})), InputError);
  // An entry that cannot be used is that server's alone: the others are read.
  const auto file = dir.write("g.json", R"({"mcpServers": {"a": 3, "b": {"command": "x", "args": "y"},
    "c": {"command": "x", "env": {"N": 1}}, "d": {}, "e": {"url": "http://h", "headers": {"H": 2}},
    "f": {"command": "x", "args": ["${}"]}, "ok": {"command": "x", "args": ["${NOPE:-fine}"]}}})");
  const auto config = read_server_config(file, places_with({}));
  EXPECT_NE(named(config, "a").unusable.find("not an object"), std::string::npos);
  EXPECT_NE(named(config, "b").unusable.find("args is not an array"), std::string::npos);
  EXPECT_NE(named(config, "c").unusable.find("env.N is 1, not a string"), std::string::npos);
  EXPECT_NE(named(config, "d").unusable.find("neither a command nor a url"), std::string::npos);
  EXPECT_NE(named(config, "e").unusable.find("headers.H is not a string"), std::string::npos);
  EXPECT_NE(named(config, "f").unusable.find("is no variable"), std::string::npos);
  EXPECT_TRUE(named(config, "ok").unusable.empty());
  EXPECT_EQ(named(config, "ok").target.command.back(), "fine");
}

TEST(ServerConfig, TheUsualFilesOfTheUserAndTheProject) {
  auto places = places_with({}, "/work/p");
  const auto files = usual_server_configs(places);
  for (const char* expected :
       {"/home/someone/.claude.json", "/home/someone/.cursor/mcp.json",
        "/home/someone/.config/Claude/claude_desktop_config.json", "/home/someone/.config/Code/User/mcp.json",
        "/home/someone/.codex/config.toml", "/work/p/.mcp.json", "/work/p/.cursor/mcp.json", "/work/p/.vscode/mcp.json",
        "/work/p/.codex/config.toml"})
    EXPECT_NE(std::find(files.begin(), files.end(), fs::path(expected)), files.end()) << expected;
  places.codex_home = "/codex";
  const auto with_codex_home = usual_server_configs(places);
  EXPECT_NE(std::find(with_codex_home.begin(), with_codex_home.end(), fs::path("/codex/config.toml")),
            with_codex_home.end());
  EXPECT_EQ(std::find(with_codex_home.begin(), with_codex_home.end(), fs::path("/home/someone/.codex/config.toml")),
            with_codex_home.end());
}

// A server two configs name alike is checked once; a difference in anything that reaches the server
// (its command, URL, environment, headers, folder) or in whether it can run makes it another.
TEST(ServerConfig, TheSameServerIsTheSameNameTargetAndUsabilityFromAnyConfig) {
  ConfiguredServer a;
  a.name = "files";
  a.config = "/home/someone/.cursor/mcp.json";
  a.target.command = {"npx", "files-server"};
  a.target.env = {{"ROOT", "/data"}};
  ConfiguredServer b = a;
  b.config = "/project/.mcp.json";
  EXPECT_TRUE(same_server(a, b));
  const std::vector<std::function<void(ConfiguredServer&)>> differences = {
      [](ConfiguredServer& s) { s.name = "files2"; },
      [](ConfiguredServer& s) {
        s.target.command = {"npx", "other-server"};
      },
      [](ConfiguredServer& s) { s.target.url = "http://127.0.0.1:1/mcp"; },
      [](ConfiguredServer& s) {
        s.target.env = {{"ROOT", "/tmp"}};
      },
      [](ConfiguredServer& s) {
        s.target.headers = {{"Authorization", "Bearer t"}};
      },
      [](ConfiguredServer& s) { s.target.working_dir = "/srv"; },
      [](ConfiguredServer& s) { s.unusable = "the variable TOKEN is not set"; },
  };
  for (std::size_t i = 0; i < differences.size(); ++i) {
    ConfiguredServer other = a;
    differences[i](other);
    EXPECT_FALSE(same_server(a, other)) << i;
  }
}

TEST(ServerConfig, RedactionHidesEveryOccurrenceLongestFirst) {
  EXPECT_EQ(redacted("a secret-1 and secret-1-long, secret-1", {"secret-1", "secret-1-long"}),
            "a [redacted] and [redacted], [redacted]");
  EXPECT_EQ(redacted("nothing here", {"", "zzz"}), "nothing here");
}

namespace {

// A config of three servers, each of which waits until all three have started (a marker each in
// `markers`, at most 30 s) before it goes on: they pass only when checked at the same time. The
// third then exits without a word of MCP. The second prints its token on stderr.
std::string three_servers(const fs::path& markers) {
  const auto server = [&](const std::string& name, const std::string& then) {
    const std::string script = "touch " + shell_quote((markers / name).string()) + "; i=0; while [ $(ls " +
                               shell_quote(markers.string()) +
                               " | wc -l) -lt 3 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; " + then;
    return json{{"command", "sh"}, {"args", {"-c", script}}};
  };
  const std::string sample = shell_quote(MCP_HINTS_SAMPLE_SERVER);
  const std::string catalogs = (test_support::source_dir() / "examples/catalogs/").string();
  json bad = server("bad", "echo \"token is $API_TOKEN\" >&2; exec " + sample + " --catalog " +
                               shell_quote(catalogs + "bad-catalog.json"));
  bad["env"] = {{"API_TOKEN", "tok-live-secret-7"}};
  const json config = {
      {"mcpServers",
       {{"good", server("good", "exec " + sample + " --catalog " + shell_quote(catalogs + "good-catalog.json"))},
        {"bad", bad},
        {"broken", server("broken", "echo starting >&2; exit 1")}}}};
  return config.dump(2);
}

}  // namespace

TEST(CheckServerConfig, ThreeServersOneBrokenAreCheckedAtOnceInOneReport) {
  test_support::TempDir dir;
  fs::create_directories(dir.path() / "markers");
  const auto config = dir.write("mcp.json", three_servers(dir.path() / "markers"));
  const auto r = run_cli({"check-server", "--config", config.string(), "--observe", "0", "--jobs", "3", "--format",
                          "json", "--timeout", "60s"});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // one could not be checked: the run is incomplete
  const json report = test_support::expect_matches_schema("server-set-report.schema.json", r.out);
  ASSERT_EQ(report["servers"].size(), 3u) << r.out;
  std::map<std::string, json> by_name;
  for (const auto& part : report["servers"]) by_name[part["name"].get<std::string>()] = part["report"];
  EXPECT_EQ(by_name["good"]["summary"]["verdict"], "pass") << by_name["good"].dump();
  EXPECT_EQ(by_name["good"]["toolCount"], 5);
  EXPECT_EQ(by_name["bad"]["summary"]["verdict"], "fail");
  EXPECT_GT(by_name["bad"]["summary"]["warning"].get<int>(), 0);
  EXPECT_EQ(by_name["broken"]["summary"]["verdict"], "incomplete");
  EXPECT_EQ(report["summary"]["verdict"], "incomplete");
  EXPECT_EQ(report["summary"]["pass"], 1);
  EXPECT_EQ(report["summary"]["fail"], 1);
  EXPECT_EQ(report["summary"]["incomplete"], 1);
  EXPECT_EQ(report["configs"], json::array({config.string()}));
  EXPECT_NE(r.err.find("read " + config.string() + ": 3 servers"), std::string::npos) << r.err;
  // The token the bad server printed is in its log, redacted.
  EXPECT_NE(by_name["bad"]["serverLog"].get<std::string>().find("token is [redacted]"), std::string::npos)
      << by_name["bad"]["serverLog"];
  // The schema's negative control: a verdict it does not know.
  test_support::expect_schema_refuses("server-set-report.schema.json", report, "/summary/verdict", "maybe");
}

TEST(CheckServerConfig, NoSecretReachesAnyFormat) {
  test_support::TempDir dir;
  fs::create_directories(dir.path() / "markers");
  const auto config = dir.write("mcp.json", three_servers(dir.path() / "markers"));
  for (const char* format : {"text", "json", "sarif", "junit", "github"}) {
    fs::remove_all(dir.path() / "markers");
    fs::create_directories(dir.path() / "markers");
    const auto r = run_cli({"check-server", "--config", config.string(), "--observe", "0", "--jobs", "3", "--format",
                            format, "--timeout", "60s"});
    EXPECT_EQ(r.exit_code, 3) << format << "\n" << r.err;
    EXPECT_EQ(r.out.find("tok-live-secret-7"), std::string::npos) << format << "\n" << r.out;
    EXPECT_EQ(r.err.find("tok-live-secret-7"), std::string::npos) << format << "\n" << r.err;
    EXPECT_NE(r.out.find("bad"), std::string::npos) << format;
    EXPECT_NE(r.out.find("broken"), std::string::npos) << format;
    if (std::string(format) != "github") {
      EXPECT_NE(r.out.find("good"), std::string::npos) << format;
    }
  }
}

TEST(CheckServerConfig, AutoReadsTheUsualFilesAndSaysWhich) {
  test_support::TempDir home, project;
  fs::create_directories(home.path() / ".cursor");
  fs::create_directories(project.path() / ".vscode");
  const std::string sample = MCP_HINTS_SAMPLE_SERVER;
  const std::string good = (test_support::source_dir() / "examples/catalogs/good-catalog.json").string();
  home.write(".cursor/mcp.json",
             json{{"mcpServers", {{"mine", {{"command", sample}, {"args", {"--catalog", good}}}}}}}.dump());
  project.write(".vscode/mcp.json",
                "// the project's\n" +
                    json{{"servers", {{"ours", {{"command", sample}, {"args", {"--catalog", good}}}}}}}.dump());
  const std::string env = "cd " + shell_quote(project.path().string()) +
                          " && HOME=" + shell_quote(home.path().string()) +
                          " CODEX_HOME=" + shell_quote((home.path() / "no-codex").string());
  const auto r = run_cli({"check-server", "--config", "auto", "--observe", "0"}, "/dev/null", env);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("read " + (home.path() / ".cursor/mcp.json").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read " + (project.path() / ".vscode/mcp.json").string()), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("== server mine"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("== server ours"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 servers: 2 pass"), std::string::npos) << r.out;
  // Nothing to find: a usage error that says where it looked.
  test_support::TempDir empty;
  const auto none =
      run_cli({"check-server", "--config", "auto"}, "/dev/null",
              "cd " + shell_quote(empty.path().string()) + " && HOME=" + shell_quote(empty.path().string()));
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no config found; looked for " + (empty.path() / ".claude.json").string()), std::string::npos)
      << none.err;
}

TEST(CheckServerConfig, UsageErrors) {
  const std::string config = (kConfigs / "claude_desktop_config.json").string();
  test_support::expect_usage_error({"check-server", "--config", config, "--", "server"},
                                   "give it without -- COMMAND or --url");
  test_support::expect_usage_error({"check-server", "--config", config, "--call", "t={}"}, "--call is for one server");
  test_support::expect_usage_error({"check-server", "--config", "/nonexistent/mcp.json"},
                                   "--config /nonexistent/mcp.json: cannot open");
  test_support::TempDir dir;
  const auto suppressions = dir.write("s.json", R"({"suppressions": []})");
  test_support::expect_usage_error(
      {"check-server", "--config", suppressions.string()},
      "holds suppressions: it is mcp-hints' own suppressions file, not a host's MCP config (give it "
      "with --suppressions)");
}
