#include "mcp_hints/checks/traceability.hpp"

#include <algorithm>
#include <set>

#include "mcp_hints/checks/checks.hpp"

namespace mcp_hints {

std::optional<TraceRef> enforced_sentence(std::string_view check_id, const Traceability& trace) {
  const auto info = find_check(check_id);
  if (!info) return std::nullopt;
  return trace.basis_of(check_id);
}

Level grounded_level(const TraceRef& basis) {
  const auto force = basis_force(basis);
  return force == "MUST" ? Level::error : force == "SHOULD" ? Level::warning : Level::info;
}

std::vector<std::string> check_trace_problems(const Traceability& trace) {
  std::vector<std::string> out;
  for (const auto& info : all_checks()) {
    const auto ref = enforced_sentence(info.id, trace);
    if (!ref) {
      out.push_back("check " + std::string(info.id) + " has no basis: no sentence of the data lists it in basisOf");
      continue;
    }
    const std::string basis = ref->document->id + "/" + ref->sentence->id;
    if (grounded_level(*ref) < info.level)
      out.push_back("check " + std::string(info.id) + " is graded " + std::string(level_name(info.level)) +
                    ", above its basis " + basis + " (" + ref->sentence->level +
                    (ref->document->kind == "own" ? ", the suite's own rule" : "") + ": at most " +
                    std::string(level_name(grounded_level(*ref))) + ")");
    if (std::find(ref->sentence->checks.begin(), ref->sentence->checks.end(), info.id) == ref->sentence->checks.end())
      out.push_back("check " + std::string(info.id) + "'s basis " + basis + " does not list it in checks");
    const bool own = ref->document->kind == "own";
    if (own && info.proposal.find("mcp-hints") == std::string_view::npos)
      out.push_back("check " + std::string(info.id) + " rests on the suite's own rule " + basis +
                    ", but its citation (" + std::string(info.proposal) + ") does not say mcp-hints");
    bool cited = own;
    for (const auto& name : ref->document->cited_as) cited = cited || info.proposal.find(name) != std::string::npos;
    if (!cited)
      out.push_back("check " + std::string(info.id) + " quotes " + ref->document->id + "/" + ref->sentence->id +
                    ", but its citation (" + std::string(info.proposal) + ") names none of " + ref->document->id +
                    "'s names");
  }
  std::set<std::string> unknown, grounded;
  for (const auto& d : trace.documents())
    for (const auto& s : d.sentences) {
      for (const auto& id : s.checks)
        if (!find_check(id) && unknown.insert(id).second)
          out.push_back(d.id + "/" + s.id + " names check " + id + ", which no check has");
      for (const auto& id : s.basis_of)
        if (!grounded.insert(id).second)
          out.push_back(d.id + "/" + s.id + " is a second basis of check " + id + ": a check has one");
    }
  return out;
}

}  // namespace mcp_hints
