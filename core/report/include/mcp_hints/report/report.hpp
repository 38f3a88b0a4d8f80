#pragma once
// Renders a lint report for people (text) and machines (JSON, SARIF 2.1.0, JUnit XML).
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/lint.hpp"

namespace mcp_hints {

struct ReportOptions {
  std::optional<Level> fail_on = Level::error;  // nullopt: findings never fail the run
  bool color = false;                           // ANSI colour (only for a terminal)
};

// The stable machine interface, described by schemas/lint-report.schema.json.
nlohmann::json report_json(const LintReport& report, const ReportOptions& options);
void render_text(std::ostream& out, const LintReport& report, const ReportOptions& options);
void render_sarif(std::ostream& out, const LintReport& report, const ReportOptions& options);
void render_junit(std::ostream& out, const LintReport& report, const ReportOptions& options);

}  // namespace mcp_hints
