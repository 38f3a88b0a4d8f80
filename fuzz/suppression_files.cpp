// A baseline or a suppressions file of any bytes: read as lint and check-server read them (from a
// file), then applied to the findings of a small catalog, and each half of the input taken as a
// glob of the other.
#include <sstream>

#include "fuzz_support.hpp"
#include "mcp_hints/checks/suppressions.hpp"

namespace {

mcp_hints::LintReport report() {
  static const auto made = [] {
    mcp_hints::LintReport out;
    std::istringstream in(
        R"({"tools": [{"name": "purge", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true,
        "destructiveHint": true, "category": "destroy", "riskLevel": "low"}}, {"name": "", "inputSchema": 1}]})");
    out.files.push_back(mcp_hints::Linter({}).lint_stream(in, "catalog.json", out.findings));
    return out;
  }();
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  static const fuzz::ScratchFile file("suppressions");
  const auto text = fuzz::text_of(data, size);
  (void)glob_matches(text.substr(0, size / 2), text.substr(size / 2));
  const std::string& path = file.write(text);
  try {
    const Baseline baseline = read_baseline(path);
    auto judged = report();
    apply_suppressions(judged, &baseline, nullptr);
  } catch (const Error&) {
  }
  try {
    const SuppressionsFile suppressions = read_suppressions(path);
    auto judged = report();
    apply_suppressions(judged, nullptr, &suppressions);
    judged.server_checks_ran = true;
    (void)baseline_json(judged, "check-server");
  } catch (const Error&) {
  }
  return 0;
}
