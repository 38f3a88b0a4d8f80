// Lines a client writes to a stdio mock server: each line into MockServer::handle_text, as the
// stdio front hands them over (it catches nothing: a line is answered, never thrown), on fresh
// servers of scenarios that script steps, page their catalogs, require authorization, speak the
// stateless era and ask for input.
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "scenario_servers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  const std::string_view input = fuzz::text_of(data, size);
  static const auto servers =
      fuzz::scenario_servers({"mock.basic", "mock.script-steps", "gateway.cache-scope-per-context",
                              "rugpull.ttl-expiry", "confirm.input-required"});
  for (const auto& spec : servers) {
    mock::MockServer server(spec);
    // Over stdio the credential comes from the environment: the scenario's first, if it has any.
    const std::string context = spec.authorizations.empty()
                                    ? std::string()
                                    : server.authorization_context("Bearer " + spec.authorizations.begin()->second);
    // One reader for the lines, as the stdio front keeps: a line that repeats the one before but
    // for its id is read as that.
    MessageReader requests = mock::MockServer::request_reader();
    for (std::size_t start = 0; start <= input.size();) {
      std::size_t end = input.find('\n', start);
      if (end == std::string_view::npos) end = input.size();
      // The stdio front catches nothing here: a line must be answered, never thrown.
      for (const auto& out : server.handle_text(input.substr(start, end - start), &requests, context)) {
        std::string line;  // written as the stdio front writes it
        out.append_text(line);
      }
      (void)mock::MockServer::cancelled_request(requests.message());
      start = end + 1;
    }
  }
  return 0;
}
