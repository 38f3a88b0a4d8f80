// mcp-hints mock: serve a scenario's mock server over stdio or Streamable HTTP, recording
// everything it is sent.
#include <algorithm>
#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const char* kHelp = R"(usage: mcp-hints mock --scenario FILE|ID [OPTIONS]

Serves one server of a scenario: its catalog (paged as the scenario says) and, per tool, its
scripted results by call number (a result, a JSON-RPC error, a delay, a transient failure,
closing the connection, tools/list_changed with a changed catalog). Like a current server, it
speaks both protocol eras by default: the session era (initialize, 2024-11-05 to 2025-11-25) and
the stateless era (2026-07-28: server/discover, the version and client capabilities in each
request's _meta, no session over HTTP, resultType, ttlMs and cacheScope), unless the scenario
applies to one era only or its server lists its revisions in protocolVersions. --protocol pins
one revision, as certify does for each run: a request of another era is then refused as that
era's server would (initialize or a _meta version it does not speak: -32022 with the versions it
speaks; server/discover to a server of the session era alone: -32601).

options:
  --scenario FILE|ID     a scenario file, or the id of a built-in scenario (see --list)
  --server NAME          which server of the scenario (needed when it has several)
  --protocol REV         speak this revision alone (all: what the scenario says, the default;
                         2024-11-05 to 2025-11-25, or 2026-07-28)
  --transport T          stdio (default) or http
  --port N               http: the port on 127.0.0.1 (default 0: a free one); the URL is printed
                         as the first line of stdout
  --record PATH          append every message in and out to PATH as JSON lines
  --max-message N        longest line or body accepted, in bytes (default 4194304); over HTTP a
                         longer body is refused with 413 while it is read
  --max-header N         http: longest request line and headers, in bytes (default 16384); 431
  --idle-timeout D       http: a connection with no request under way, or on which nothing moves,
                         is closed after D (default 5s; 30s, 500ms, 2m)
  --header-timeout D     http: the request line and headers must arrive within D of their first
                         byte (default 10s; 30s, 500ms, 2m); 408
  --max-connections N    http: connections served at once, each on its own thread (default 512);
                         one more is answered 503 and closed
  --list                 list the built-in scenarios and exit
  -h, --help             this text

exit codes: 0 the client went away (stdio) or a signal ended the server (http), 1 a line over
the size limit ended it, 2 usage error or a scenario that is not valid.
)";

}  // namespace

int mock_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("scenario", po::value<std::string>(), "")("server", po::value<std::string>(), "")(
      "protocol", po::value<std::string>()->default_value("all"), "")(
      "transport", po::value<std::string>()->default_value("stdio"), "")(
      "port", po::value<Port>()->default_value(Port(0), "0"), "")("record", po::value<std::string>(), "")(
      "max-message", po::value<Count>()->default_value(Count(std::size_t{4} << 20), "4194304"), "")(
      "max-header", po::value<Count>()->default_value(Count(std::size_t{16} << 10), "16384"), "")(
      "idle-timeout", po::value<Duration>()->default_value(Duration(std::chrono::seconds(5)), "5s"), "")(
      "header-timeout", po::value<Duration>()->default_value(Duration(std::chrono::seconds(10)), "10s"), "")(
      "max-connections", po::value<Count>()->default_value(Count(512), "512"), "")("list", "");
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm)) return *exit;
  if (vm.count("list")) {
    std::vector<Row> rows;
    for (const auto& id : mock::builtin_scenario_ids()) {
      const auto scenario = mock::load_scenario(id);
      rows.push_back({id, padded(scenario.level, 8) + scenario.title});
    }
    std::cout << columns(rows, 0, 48);
    return pass;
  }
  auto usage = [](const std::string& why) { return usage_error("mock", why); };
  if (!vm.count("scenario")) return usage("--scenario FILE|ID is required (try --list)");
  const std::string transport = vm["transport"].as<std::string>();
  if (transport != "stdio" && transport != "http")
    return usage("unknown --transport '" + transport + "' (stdio, http)");
  const int port = static_cast<int>(vm["port"].as<Port>().value);  // 0 to 65535
  for (const char* http_only : {"port", "max-header", "idle-timeout", "header-timeout", "max-connections"})
    if (transport == "stdio" && !vm[http_only].defaulted())
      return usage(std::string("--") + http_only + " has no effect over stdio (give --transport http)");
  for (const char* positive : {"max-header", "max-connections"})
    if (vm[positive].as<Count>().value == 0) return usage(std::string("--") + positive + " must be at least 1");
  for (const char* positive : {"idle-timeout", "header-timeout"})
    if (vm[positive].as<Duration>().value.count() == 0)
      return usage(std::string("--") + positive + " must be longer than 0");
  // A scenario that cannot be used, or a record file that cannot be opened, is an Error: main says it.
  auto scenario = mock::load_scenario(vm["scenario"].as<std::string>());
  if (const std::string protocol = vm["protocol"].as<std::string>(); protocol != "all") {
    const auto versions = all_protocol_versions();
    if (std::find(versions.begin(), versions.end(), protocol) == versions.end())
      return usage("unknown --protocol '" + protocol + "' (all, " + join(versions, ", ") + ")");
    const std::string era = is_stateless_revision(protocol) ? "stateless" : "legacy";
    if (!scenario.applies_to_era(era))
      return usage("scenario " + scenario.id + " does not apply to the era of " + protocol);
    scenario = mock::pinned_to(std::move(scenario), protocol);
  }
  std::string names;
  for (const auto& [key, spec] : scenario.servers) names += (names.empty() ? "" : ", ") + key;
  std::string server_key;
  if (vm.count("server")) {
    server_key = vm["server"].as<std::string>();
    if (!scenario.servers.count(server_key))
      return usage("scenario " + scenario.id + " has no server '" + server_key + "' (it has " + names + ")");
  } else if (scenario.servers.size() == 1) {
    server_key = scenario.servers.begin()->first;
  } else {
    return usage("scenario " + scenario.id + " has several servers (" + names + "): choose one with --server");
  }
  std::optional<mock::Recorder> recorder;
  if (vm.count("record")) recorder.emplace(vm["record"].as<std::string>());
  mock::MockServer server(scenario.servers.at(server_key));
  mock::ServeOptions serve;
  serve.recorder = recorder ? &*recorder : nullptr;
  serve.max_message = vm["max-message"].as<Count>().value;
  serve.http.max_header = vm["max-header"].as<Count>().value;
  serve.http.idle_timeout = vm["idle-timeout"].as<Duration>().value;
  serve.http.header_timeout = vm["header-timeout"].as<Duration>().value;
  serve.http.max_connections = vm["max-connections"].as<Count>().value;
  serve.port = port;
  return transport == "http" ? mock::serve_http(server, serve) : mock::serve_stdio(server, serve);
}

}  // namespace mcp_hints::cli
