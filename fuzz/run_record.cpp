// What a client under certification leaves behind: the input is written as the events file and
// as the wire record of every mock server, read by read_run_record as certify reads them, timed
// against the client's window, and every check of three scenarios judged on the record.
#include <map>
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/conformance/run_record.hpp"

namespace {

struct Judged {
  std::map<std::string, std::string> servers;  // key -> (the scratch file)
  std::vector<mcp_hints::conformance::CheckSpec> checks;
};

const std::vector<Judged>& scenarios(const std::string& wire) {
  using namespace mcp_hints::conformance;
  static const auto made = [&] {
    std::vector<Judged> out;
    for (const char* id : {"propagation.cross-server", "retry.idempotent-bounded", "confirm.spec-destructive",
                           "gateway.cache-scope-per-context"}) {
      const auto scenario = load_certification_scenario(id);
      Judged judged;
      for (const auto& [key, spec] : scenario.servers) judged.servers[key] = wire;
      judged.checks = read_checks(scenario);
      judged.checks.push_back(client_messages_check(scenario));
      out.push_back(std::move(judged));
    }
    return out;
  }();
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  static const fuzz::ScratchFile wire("wire"), events("events");
  const std::string_view input = fuzz::text_of(data, size);
  wire.write(input);
  events.write(input);
  try {
    for (const auto& judged : scenarios(wire.path())) {
      auto record = conformance::read_run_record(judged.servers, events.path());
      (void)conformance::protocol_notes(record);
      conformance::check_event_times(record, 1.7e9, 1.7e9 + 60);
      for (const auto& check : judged.checks)
        for (const char* transport : {"stdio", "http"}) (void)conformance::judge_check(check, record, transport);
    }
  } catch (const Error&) {
  }
  return 0;
}
