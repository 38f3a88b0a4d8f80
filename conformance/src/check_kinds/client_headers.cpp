// client-headers: over Streamable HTTP in the stateless era, the client mirrors what its requests
// say in the request metadata headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, and the
// Mcp-Param headers of a tool's x-mcp-header parameters), as the mock server checks them: every
// request it refused for a header that is missing or says otherwise (-32020) is the client's
// fault. Certify adds this check to every run over HTTP that may speak the stateless era.
#include "check_kind.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

namespace {

struct ClientHeaders {};

ClientHeaders read_client_headers(CheckReader& in) {
  in.fail("kind", "certify adds the client-headers check to runs over HTTP: a scenario does not declare it");
}

Observation judge_client_headers(const ClientHeaders&, const RunRecord& record) {
  std::size_t requests = 0, refused = 0;
  const WireLine* first = nullptr;
  for (const auto& line : record.wire) {
    if (line.connection != mock::kStatelessHttpConnection) continue;
    if (record.is_request_in(line)) ++requests;
    if (!line.event.starts_with(mock::kHeaderMismatchRefusal)) continue;
    if (refused++ == 0) first = &line;
  }
  const std::string counts = std::to_string(requests) + " request(s) of the stateless era over HTTP";
  if (requests == 0)
    return {"no-stateless-requests", "no request of the stateless era over HTTP reached a mock server"};
  if (refused == 0) return {"mirrored", counts + ", each with the headers that mirror it"};
  return {"header-mismatch",
          counts + "; " + std::to_string(refused) + " refused with -32020 (HTTP 400); first, to " + first->server +
              ": " + first->event.substr(mock::kHeaderMismatchRefusal.size()),
          first};
}

}  // namespace

CheckKind client_headers_kind() {
  CheckKind kind = make_check_kind(
      "client-headers",
      {{"mirrored", "every stateless-era request over HTTP carried the headers that mirror its body"},
       {"header-mismatch",
        "a request lacked a request metadata header or an x-mcp-header parameter's Mcp-Param header, or one said "
        "otherwise than the body, and the server refused it (-32020)"},
       {"no-stateless-requests", "the client sent no request of the stateless era over HTTP", true}},
      read_client_headers, judge_client_headers);
  kind.implicit = true;
  return kind;
}

CheckSpec client_headers_check() {
  CheckSpec check;
  check.id = "client-headers";
  check.title = "Every stateless-era request over HTTP mirrors its body in the request metadata headers";
  check.level = "MUST";
  check.basis = "spec/request-metadata-headers";
  check.proposal = "MCP specification 2026-07-28";
  check.section =
      "Streamable HTTP: Sending Messages to the Server (\"The client MUST include the request metadata headers on "
      "each POST request\"); Request Metadata, x-mcp-header (\"conforming clients MUST mirror the designated "
      "parameter values into HTTP headers\")";
  check.kind = "client-headers";
  check.transports = {"http"};
  check.traces = {{"mirrored", Verdict::pass}};
  check.parameters = ClientHeaders{};
  return check;
}

}  // namespace mcp_hints::conformance
