// A scenario file of any bytes: read as load_scenario reads a file (parse_json, the scenario
// schema, parse_scenario), its checks read by the conformance table (read_checks), and each of its
// mock servers set up and asked for its catalog.
#include "mcp_hints/mock/scenario.hpp"
#include "fuzz_support.hpp"
#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  try {
    const mock::Scenario scenario = mock::parse_scenario(parse_json(fuzz::text_of(data, size)), "fuzz.json");
    (void)conformance::read_checks(scenario);
    for (const auto& [key, spec] : scenario.servers) {
      mock::MockServer server(spec);
      nlohmann::json cursor;
      // Every page of its catalog, as a client following nextCursor would (bounded).
      for (int page = 0; page < 64; ++page) {
        nlohmann::json params = nlohmann::json::object();
        if (!cursor.is_null()) params["cursor"] = cursor;
        const auto outs = server.handle(jsonrpc::request(page + 1, "tools/list", params));
        if (outs.empty() || !outs.front().message().contains("result")) break;
        cursor = outs.front().message()["result"].value("nextCursor", nlohmann::json());
        if (!cursor.is_string()) break;
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
