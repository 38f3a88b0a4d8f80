#pragma once
// The traceability data (vocab role) held to the registry of checks: the sentence each check's
// findings quote, and what in the data disagrees with what the checks claim.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/vocab/traceability.hpp"

namespace mcp_hints {

// The sentence a check enforces, as its findings quote it: of the sentences naming the check, the
// one of the document its own citation names first. None for an id no check has, or that no
// sentence names.
std::optional<TraceRef> enforced_sentence(std::string_view check_id,
                                          const Traceability& trace = Traceability::builtin());

// Each line one disagreement: a check no sentence names, a check id the data names that no check
// has, or a check whose quoted sentence is in a document its citation does not name (the suite's
// own rules aside). Empty when the data and the registry agree.
std::vector<std::string> check_trace_problems(const Traceability& trace);

}  // namespace mcp_hints
