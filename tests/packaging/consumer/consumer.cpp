// Lints the catalogs named on the command line with the installed library and prints what it
// found: "N tools, M findings" and one line per finding's check id, then how many scenarios the
// mock role has compiled in (the mock role brings wire and its dependencies: cpp-httplib, Boost,
// threads). Exit 0 clean, 1 findings.
#include <iostream>
#include <string>
#include <vector>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/mock/scenario.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> paths(argv + 1, argv + argc);
  const mcp_hints::LintReport report = mcp_hints::Linter({}).lint_files(paths);
  std::cout << "mcp_hints " << mcp_hints::kVersion << ": " << report.tool_count() << " tools, "
            << report.findings.size() << " findings\n";
  for (const auto& finding : report.findings) std::cout << finding.check << '\n';
  std::cout << mcp_hints::mock::builtin_scenario_ids().size() << " built-in scenarios\n";
  if (report.has_input_error()) return 2;
  return report.findings.empty() ? 0 : 1;
}
