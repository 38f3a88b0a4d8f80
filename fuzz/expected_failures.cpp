// An expected-failures file of any bytes: read as certify reads it (from a file), then applied to
// runs of two certification scenarios whose checks alternately fail and pass.
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/expected_failures.hpp"
#include "mcp_hints/conformance/judge.hpp"

namespace {

std::vector<mcp_hints::conformance::ScenarioRun> runs() {
  using namespace mcp_hints::conformance;
  static const auto made = [] {
    std::vector<ScenarioRun> out;
    for (const char* id : {"confirm.spec-destructive", "propagation.cross-server"}) {
      ScenarioRun run;
      run.scenario = load_certification_scenario(id);
      run.transport = "stdio";
      Verdict verdict = Verdict::fail;
      for (const auto& spec : read_checks(run.scenario)) {
        CheckResult result;
        result.spec = spec;
        result.verdict = verdict;
        verdict = verdict == Verdict::fail ? Verdict::warning : Verdict::fail;
        run.checks.push_back(std::move(result));
      }
      out.push_back(std::move(run));
    }
    return out;
  }();
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  static const fuzz::ScratchFile file("expected-failures");
  try {
    const auto entries = conformance::load_expected_failures(file.write(fuzz::text_of(data, size)));
    for (const bool strict : {false, true}) {
      auto scenario_runs = runs();
      (void)conformance::apply_expected_failures(entries, scenario_runs, strict);
    }
  } catch (const Error&) {
  }
  return 0;
}
