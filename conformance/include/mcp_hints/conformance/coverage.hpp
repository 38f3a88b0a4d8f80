#pragma once
// Coverage by construction: scenarios generated from the crosswalk for every value that can ask
// for confirmation or make returned data sensitive (and their neighbours, and absence), and the
// coverage table that reads every certification scenario, hand-written or generated, to show which
// keys, values and boundaries of each semantic some check exercises.
#include <string>
#include <vector>

#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::conformance {

// The generated certification scenarios (confirm.triggers.*, exfiltration.sources.*), each
// validated by the scenario schema.
std::vector<mock::Scenario> generated_scenarios();

struct CoverageRow {
  std::string semantic;                   // "confirmation", "sensitive data", "absent hints", "propagation"
  std::string key;                        // "risk-metadata riskLevel"
  std::string value;                      // "\"critical\"", or what is absent
  std::string role;                       // "asks", "does not ask", "taints", "does not taint", "carried"
  std::vector<std::string> exercised_by;  // scenario:check
};

// Every row the semantics define, each with the checks of `scenarios` that exercise it. A check
// exercises a row when its verdicts follow the rule for that value alone: the gated tool carries
// the value and nothing else that asks (or taints), and the check demands a prompt exactly when
// the row's role does.
std::vector<CoverageRow> coverage(const std::vector<mock::Scenario>& scenarios);

std::string coverage_text(const std::vector<CoverageRow>& rows);
std::string coverage_markdown(const std::vector<CoverageRow>& rows);

}  // namespace mcp_hints::conformance
