#pragma once
// The traceability data (vocab role) held to the certification scenarios: each scenario is named by
// a sentence of a document it cites, and each sentence it quotes (`quotes`) is one of the data's.
#include <string>
#include <vector>

#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/vocab/traceability.hpp"

namespace mcp_hints::conformance {

// Each line one disagreement: a scenario no sentence names, a scenario id the data names that no
// scenario has, a scenario named by a sentence of a document it does not cite, or a quote of a
// scenario that is no sentence of the data. Empty when they agree.
std::vector<std::string> scenario_trace_problems(const Traceability& trace,
                                                 const std::vector<mock::Scenario>& scenarios);

// A check's basis (CheckSpec::basis, DOCUMENT/ID) quoted, as the recap of a check ends with it;
// empty when the data has no such sentence.
std::string basis_sentence_text(const std::string& basis, const Traceability& trace = Traceability::builtin());

}  // namespace mcp_hints::conformance
