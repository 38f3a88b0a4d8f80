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

// The sentence a scenario's check enforces, as the recap of a failed check ends with it
// (`proposal`: the check's citation): of the sentences naming the scenario, the one of the
// document the citation names first; empty when no sentence names the scenario.
std::string scenario_sentence_text(const std::string& scenario_id, const std::string& proposal,
                                   const Traceability& trace = Traceability::builtin());

}  // namespace mcp_hints::conformance
