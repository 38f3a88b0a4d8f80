#pragma once
// checks.json as the official MCP conformance suite writes it (@modelcontextprotocol/conformance:
// its ConformanceCheck), so a tool that reads that suite's results reads ours: one JSON array of
// checks per scenario, in RESULTS_DIR/<scenario>/checks.json.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/lint.hpp"

namespace mcp_hints {

// One check result: the suite's member names (id, name, description, status, timestamp,
// specReferences, details, errorMessage); status is one of its five: SUCCESS, FAILURE, WARNING,
// INFO, SKIPPED. An empty reference, details or error message is left out, as the suite does.
struct OfficialCheck {
  std::string id, name, description, status, timestamp;
  std::vector<std::string> spec_references;  // each {"id": ...} (the suite's url is optional)
  nlohmann::json details;                    // null: left out
  std::string error_message;
};

// The current time as the suite writes it (ISO 8601, UTC, milliseconds: 2026-11-24T15:40:43.123Z).
std::string official_timestamp();

// A check id as the suite's CamelCase name ("hint.read-only" -> "HintReadOnly").
std::string official_name(std::string_view id);

// The checks of one scenario, as the suite's checks.json array (members in the suite's order).
nlohmann::ordered_json official_checks_json(const std::vector<OfficialCheck>& checks);

// A lint or check-server report, one check per check that could run: SUCCESS with no finding that
// counts, else FAILURE, WARNING or INFO for its worst finding (every finding's message in
// errorMessage, each one in details.findings; suppressed findings are in details only and do not
// count). SKIPPED: a server check when no server was checked, a run check when no baseline or
// suppressions file was applied, and, in an incomplete run, a server check with no finding (it
// may never have run: JUnit's <skipped> too). An incomplete run adds a FAILURE check
// "run.incomplete" saying why, as the suite records a scenario that threw.
std::vector<OfficialCheck> official_checks(const LintReport& report, const std::string& timestamp);

// Writes DIR/<scenario>/checks.json; throws OutputError (output_file.hpp).
void write_official_checks(const std::filesystem::path& dir, const std::string& scenario,
                           const std::vector<OfficialCheck>& checks);

}  // namespace mcp_hints
