#pragma once
// The traceability data (vocab role) held to the registry of checks: the sentence each check's
// findings quote, and what in the data disagrees with what the checks claim.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/vocab/traceability.hpp"

namespace mcp_hints {

// The sentence a check enforces, as its findings quote it: its basis (the sentence whose basisOf
// lists it). None for an id no check has, or that no sentence is the basis of.
std::optional<TraceRef> enforced_sentence(std::string_view check_id,
                                          const Traceability& trace = Traceability::builtin());

// The strongest level a basis grounds: MUST an error, SHOULD a warning, MAY or a definition an
// info; the suite's own rules at most a warning (basis_force).
Level grounded_level(const TraceRef& basis);

// Each line one disagreement: a check without exactly one basis, a check graded above its basis
// (an error on a SHOULD, a warning on a definition), a basis that does not list the check among
// those it enforces, a check id the data names that no check has, or a check whose basis is in a
// document its citation does not name (the suite's own rules aside). Empty when the data and the
// registry agree.
std::vector<std::string> check_trace_problems(const Traceability& trace);

}  // namespace mcp_hints
