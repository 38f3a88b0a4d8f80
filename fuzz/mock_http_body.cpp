// Requests to a mock server's Streamable HTTP endpoint (HttpEndpoint::handle: origin, Accept and
// Content-Type, authorization, sessions, the stateless era's mirrored headers, then the engine),
// as they arrive past the HTTP front. The input is up to eight requests separated by a line
// "---"; each is a method line, "Name: value" header lines, an empty line and the body. The value
// $SESSION stands for the last Mcp-Session-Id the endpoint gave, so sessions are reached.
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/mock/http_endpoint.hpp"
#include "scenario_servers.hpp"

namespace {

using namespace mcp_hints;

std::string_view next_line(std::string_view& rest) {
  const std::size_t newline = rest.find('\n');
  const std::string_view line = rest.substr(0, newline);
  rest = newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
  return line;
}

HttpRequestView request_of(std::string_view text, const std::string& session) {
  HttpRequestView req;
  req.method = std::string(next_line(text));
  while (!text.empty()) {
    const std::string_view line = next_line(text);
    if (line.empty()) break;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = line.substr(0, colon);
    std::string value(line.substr(colon + 1));
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (value == "$SESSION") value = session;
    if (name == "Mcp-Session-Id") req.session_id = value;
    if (name == "Origin") req.origin = value;
    if (name == "Authorization") req.authorization = value;
    if (name == "MCP-Protocol-Version") req.has_protocol_version = true, req.protocol_version = value;
    if (name == "Mcp-Method") req.has_mcp_method = true, req.mcp_method = value;
    if (name == "Mcp-Name") req.has_mcp_name = true, req.mcp_name = value;
    if (name == "Content-Type") req.has_content_type = true, req.content_type = value;
    if (name == "Accept") req.has_accept = true, req.accept = value;
  }
  req.body = std::string(text);
  return req;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto requests = fuzz::requests_of(fuzz::text_of(data, size));
  static const auto servers = fuzz::scenario_servers(
      {"mock.basic", "gateway.cache-scope-per-context", "rugpull.ttl-expiry", "retry.idempotent-bounded"});
  for (const auto& spec : servers) {
    mock::MockServer server(spec);
    mock::HttpEndpoint endpoint(server, nullptr, /*keep_time=*/false);
    std::string session;
    for (const auto text : requests) {
      const HttpReply reply = endpoint.handle(request_of(text, session));
      for (const auto& [name, value] : reply.headers)
        if (name == "Mcp-Session-Id") session = value;
      if (reply.status < 100 || reply.status > 599) __builtin_trap();  // no HTTP status
    }
  }
  return 0;
}
