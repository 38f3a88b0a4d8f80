#pragma once
// Renders a lint report for people (text) and machines (JSON, SARIF 2.1.0, JUnit XML, GitHub
// Actions workflow commands).
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/lint.hpp"

namespace mcp_hints {

struct ReportOptions {
  std::optional<Level> fail_on = Level::warning;  // nullopt: findings never fail the run
  bool color = false;                             // ANSI colour (only for a terminal)
  bool show_suppressed = false;                   // text: list suppressed findings too (else only counted)
};

// The stable machine interface, described by schemas/lint-report.schema.json.
nlohmann::json report_json(const LintReport& report, const ReportOptions& options);
// report_json(...).dump(2) and a line break, written as it is made: no DOM of the whole report.
void write_report_json(std::ostream& out, const LintReport& report, const ReportOptions& options);
void render_text(std::ostream& out, const LintReport& report, const ReportOptions& options);
void render_sarif(std::ostream& out, const LintReport& report, const ReportOptions& options);
void render_junit(std::ostream& out, const LintReport& report, const ReportOptions& options);
// GitHub Actions workflow commands: one `::error file=F,line=L,col=C,title=CHECK::message` per
// finding that counts (warning: ::warning, info: ::notice), one per input error, one for an
// incomplete run, and one ::notice counting the suppressed findings, so a workflow annotates the
// lines themselves.
void render_github(std::ostream& out, const LintReport& report, const ReportOptions& options);

// check-server --config: the servers of hosts' config files, a report each, in one document.
struct ServerSetReport {
  struct Part {
    std::string name;    // the server, as the report calls it
    std::string config;  // the config file it was read from
    LintReport report;
  };
  struct Left {  // a server its config disables: not checked
    std::string name, config, why;
  };
  std::vector<std::string> configs;  // the config files read
  std::vector<Part> parts;
  std::vector<Left> disabled;

  // The worst of the parts' verdicts: "incomplete", "bad input", "fail", or "pass" (none, too).
  std::string verdict(const ReportOptions& options) const;
};
// In a format of --format: text (a part per server, then the verdict of them all), json
// (schemas/server-set-report.schema.json: each part a lint report), sarif (a run per server, its
// automationDetails naming it), junit (a suite per server) or github (each server's annotations).
void render_server_set(std::ostream& out, const ServerSetReport& set, const std::string& format,
                       const ReportOptions& options);

}  // namespace mcp_hints
