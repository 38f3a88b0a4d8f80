// A saved tools/list of any bytes: the streaming catalog reader, every lint check on every tool,
// and every report format rendering what they found.
#include <sstream>

#include "fuzz_support.hpp"
#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/report/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  static const Linter linter{LintOptions{}};
  std::istringstream in{std::string(fuzz::text_of(data, size))};
  LintReport report;
  report.spec_revision = linter.options().spec_revision;
  report.files.push_back(linter.lint_stream(in, "fuzz.json", report.findings));
  const ReportOptions options;
  std::ostringstream out;
  render_text(out, report, options);
  render_sarif(out, report, options);
  render_junit(out, report, options);
  render_github(out, report, options);
  out << report_json(report, options).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
