// A request to a mock server over Streamable HTTP: the input's first line is the Authorization
// header, the rest the POST body. The HTTP front's handler is not a function of its own, so this
// drives what it calls: the body read within the message limit, then MockServer::handle (or
// handle_text when the body is not JSON) under the header's authorization context.
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "scenario_servers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  const std::string_view input = fuzz::text_of(data, size);
  const std::size_t newline = input.find('\n');
  const std::string_view authorization =
      newline == std::string_view::npos ? std::string_view() : input.substr(0, newline);
  const std::string_view body = newline == std::string_view::npos ? input : input.substr(newline + 1);
  if (body.size() > mock::ServeOptions{}.max_message) return 0;  // answered 413 before anything reads it
  nlohmann::json parsed;
  try {
    parsed = parse_json(body);
  } catch (const InputError&) {
    parsed = nlohmann::json();
  }
  static const auto servers = fuzz::scenario_servers(
      {"mock.basic", "gateway.cache-scope-per-context", "rugpull.ttl-expiry", "retry.idempotent-bounded"});
  for (const auto& spec : servers) {
    mock::MockServer server(spec);
    const std::string context = server.authorization_context(authorization);
    // Twice, as a client that repeats itself: scripts advance, sessions and open inputs persist.
    for (int round = 0; round < 2; ++round) {
      const auto outs = parsed.is_null() ? server.handle_text(body, nullptr, context) : server.handle(parsed, context);
      for (const auto& out : outs) (void)out.message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    (void)mock::MockServer::cancelled_request(parsed);
  }
  return 0;
}
