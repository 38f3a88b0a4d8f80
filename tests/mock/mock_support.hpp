#pragma once
// For the mock's tests: a scenario's server as an engine, the mock as a child over HTTP, and the
// first request of a session-era client.
#include <string>
#include <vector>

#include "listening_child.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"

namespace test_support {

// One server of a bundled scenario, as the engine the fronts drive.
inline mcp_hints::mock::MockServer server_of(const std::string& id, const std::string& server = "main") {
  return mcp_hints::mock::MockServer(mcp_hints::mock::load_scenario(id).servers.at(server));
}

// `mcp-hints mock --transport http` as a child.
inline ListeningChild http_mock(const std::vector<std::string>& args) {
  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "mock", "--transport", "http"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  return start_listening(o);
}

// A 2025-11-25 client's initialize.
inline nlohmann::json initialize_request(const std::string& client_name = "t") {
  return mcp_hints::jsonrpc::request(0, "initialize",
                                     nlohmann::json{{"protocolVersion", "2025-11-25"},
                                                    {"capabilities", nlohmann::json::object()},
                                                    {"clientInfo", {{"name", client_name}, {"version", "1"}}}});
}

}  // namespace test_support
