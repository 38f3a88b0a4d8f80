// clean-start: the first requests of a new session carry none of the earlier session's annotation.
#include <map>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct CleanStart {
  std::string key;  // the annotation judged
};

CleanStart read_clean_start(CheckReader& in) { return {in.text("key")}; }

Observation judge_clean_start(const CleanStart& check, const RunRecord& record) {
  // When each session first received a result carrying the key.
  std::map<std::size_t, double> first_set;
  for (const auto& line : record.wire) {
    AnnotationExpectation e;
    if (const json* value = result_annotation(line, check.key)) {
      e.see(check.key, *value);
      if (e.set) first_set.emplace(line.session, line.time);
    }
  }
  std::size_t checked = 0;
  for (const auto& line : record.wire) {
    if (line.session < 2 || !first_set.count(line.session - 1) || !record.is_request_in(line)) continue;
    // Only requests before this session's own first result carrying the key.
    if (auto here = first_set.find(line.session); here != first_set.end() && here->second <= line.time) continue;
    ++checked;
    if (const json* carried = request_annotation(line, check.key))
      return {"leaked",
              describe_request(line) + " in session " + std::to_string(line.session) + " carried " + check.key + " " +
                  carried->dump(),
              &line};
  }
  if (checked == 0)
    return {"no-second-session", "no request of a new session followed one where " + check.key + " was set"};
  return {"clean", std::to_string(checked) + " request(s) of new sessions checked"};
}

}  // namespace

CheckKind clean_start_kind() {
  return make_check_kind(
      "clean-start",
      {{"clean", "a new session's requests carried none of the earlier session's annotation"},
       {"leaked", "a new session's request carried the earlier session's annotation"},
       {"no-second-session", "no second session followed a session in which the annotation was set", true}},
      read_clean_start, judge_clean_start);
}

}  // namespace mcp_hints::conformance
