// progress: the progressToken on calls of a tool, the progress the server sent, and the client's
// progress_shown events.
#include <algorithm>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

using Progress = ToolOnServer;

Observation judge_progress(const Progress& check, const RunRecord& record) {
  std::size_t calls = 0, requested = 0, sent = 0;
  double first = kNever;
  const WireLine* first_progress = nullptr;
  for (const auto& line : record.wire) {
    if (is_call_of(record, line, check.server, check.tool)) {
      ++calls;
      if (const json* token = member(line.message, {"params", "_meta", "progressToken"}); token && !token->is_null())
        ++requested;
    } else if (line.server == check.server && is_out_notification(line, "notifications/progress")) {
      if (++sent == 1) first_progress = &line;
      first = std::min(first, line.time);
    }
  }
  const std::string counts = std::to_string(calls) + " call(s) of " + check.tool + ", " + std::to_string(requested) +
                             " with a progressToken, " + std::to_string(sent) + " progress notification(s) sent";
  if (calls == 0) return {"not-reached", counts};
  if (requested == 0 || sent == 0) return {"not-requested", counts};
  for (const auto& e : record.events)
    if (e.type == "progress_shown" && e.time >= first && event_is_for(e, check.server, check.tool))
      return {"shown", counts, nullptr, &e};
  return {"not-shown", counts + "; no progress_shown event", first_progress};
}

}  // namespace

CheckKind progress_kind() {
  return make_check_kind("progress",
                         {{"shown", "the client asked for progress and showed it to the user (a progress_shown event)"},
                          {"not-shown", "the server sent progress the client asked for, but the client showed none"},
                          {"not-requested", "the client called without a progressToken, so no progress could be sent"},
                          {"not-reached", "the tool was never called", true}},
                         read_tool_on_server, judge_progress);
}

}  // namespace mcp_hints::conformance
