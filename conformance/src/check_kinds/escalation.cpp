// escalation: an escalated event after a result reporting malicious activity.
#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct Escalation {
  std::string server;
};

Escalation read_escalation(CheckReader& in) { return {in.server("server")}; }

Observation judge_escalation(const Escalation& check, const RunRecord& record) {
  double when = kNever;
  const WireLine* report = nullptr;
  for (const auto& line : record.wire) {
    const json* value = result_annotation(line, "maliciousActivityHint");
    if (line.server == check.server && value && *value == true) {
      when = line.time;
      report = &line;
      break;
    }
  }
  if (when == kNever) return {"not-reached", "no result with maliciousActivityHint true was sent"};
  for (const auto& e : record.events)
    if (e.type == "escalated" && e.time >= when)
      return {"escalated", "escalated: " + text_or(e.data, "why", text_or(e.data, "what", "(no reason given)")),
              nullptr, &e};
  return {"not-escalated", "no escalated event after the result reporting malicious activity", report};
}

}  // namespace

CheckKind escalation_kind() {
  return make_check_kind(
      "escalation",
      {{"escalated", "after the result reporting malicious activity the client told the user (an escalated event)"},
       {"not-escalated", "the result reporting malicious activity was not escalated"},
       {"not-reached", "no result reporting malicious activity was sent", true}},
      read_escalation, judge_escalation);
}

}  // namespace mcp_hints::conformance
