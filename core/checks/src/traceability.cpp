#include "mcp_hints/checks/traceability.hpp"

#include <set>

#include "mcp_hints/checks/checks.hpp"

namespace mcp_hints {

std::optional<TraceRef> enforced_sentence(std::string_view check_id, const Traceability& trace) {
  const auto info = find_check(check_id);
  if (!info) return std::nullopt;
  return trace.sentence_for(check_id, info->proposal);
}

std::vector<std::string> check_trace_problems(const Traceability& trace) {
  std::vector<std::string> out;
  for (const auto& info : all_checks()) {
    const auto ref = enforced_sentence(info.id, trace);
    if (!ref) {
      out.push_back("check " + std::string(info.id) + " names no sentence: no sentence of the data lists it");
      continue;
    }
    bool cited = ref->document->kind == "own";
    for (const auto& name : ref->document->cited_as) cited = cited || info.proposal.find(name) != std::string::npos;
    if (!cited)
      out.push_back("check " + std::string(info.id) + " quotes " + ref->document->id + "/" + ref->sentence->id +
                    ", but its citation (" + std::string(info.proposal) + ") names none of " + ref->document->id +
                    "'s names");
  }
  std::set<std::string> unknown;
  for (const auto& d : trace.documents())
    for (const auto& s : d.sentences)
      for (const auto& id : s.checks)
        if (!find_check(id) && unknown.insert(id).second)
          out.push_back(d.id + "/" + s.id + " names check " + id + ", which no check has");
  return out;
}

}  // namespace mcp_hints
