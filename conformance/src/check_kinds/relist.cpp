// relist: whether the client lists tools again before it calls one, after the server's
// tools/list_changed or, with "when": "new-session", at the start of every later session (a
// listing never outlives the session it came from).
#include <map>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

namespace {

struct Relist {
  std::string server;
  bool new_session = false;
};

Relist read_relist(CheckReader& in) {
  Relist relist{in.server("server")};
  relist.new_session = in.text_or("when", "list-changed") == "new-session";
  return relist;
}

// In each session of the server after the first: a tools/list before the first tools/call?
Observation judge_new_sessions(const Relist& check, const RunRecord& record) {
  std::map<std::size_t, std::string> by_session;  // session -> outcome
  std::string detail;
  for (const auto& line : record.wire) {
    if (line.server != check.server || line.session < 2 || !record.is_request_in(line)) continue;
    auto [it, added] = by_session.emplace(line.session, "not-reached");
    if (it->second != "not-reached" && it->second != "relisted") continue;
    const auto method = line.message["method"];
    if (method == "tools/list") it->second = "relisted";
    if (method == "tools/call") {
      if (it->second == "relisted") {
        it->second = "relisted-before-call";
      } else {
        it->second = "called-without-relist";
        detail = "; in session " + std::to_string(line.session) + ", " + describe_request(line) + " came first";
      }
    }
  }
  if (by_session.empty()) return {"not-reached", "no second session of " + check.server};
  std::string result = "relisted-before-call";
  for (const auto& [session, outcome] : by_session) {
    auto rank = [](const std::string& o) {
      return o == "called-without-relist" ? 3 : o == "not-reached" ? 2 : o == "relisted" ? 1 : 0;
    };
    if (rank(outcome) > rank(result)) result = outcome;
  }
  return {result, std::to_string(by_session.size()) + " later session(s) of " + check.server + detail};
}

Observation judge_relist(const Relist& check, const RunRecord& record) {
  if (check.new_session) return judge_new_sessions(check, record);
  std::size_t changes = 0;
  std::string result = "not-reached", detail;
  for (std::size_t i = 0; i < record.wire.size(); ++i) {
    const auto& notice = record.wire[i];
    if (notice.server != check.server || !is_catalog_change(notice)) continue;
    ++changes;
    std::string here = "not-reached";
    for (std::size_t j = i + 1; j < record.wire.size(); ++j) {
      const auto& line = record.wire[j];
      if (line.server != check.server || line.connection != notice.connection || !record.is_request_in(line)) continue;
      const auto method = line.message["method"];
      if (method == "tools/list") {
        here = "relisted";
        for (std::size_t k = j + 1; k < record.wire.size(); ++k)
          if (record.wire[k].connection == notice.connection && record.is_request_in(record.wire[k]) &&
              record.wire[k].message["method"] == "tools/call")
            here = "relisted-before-call";
        break;
      }
      if (method == "tools/call") {
        here = "called-without-relist";
        detail = "; " + describe_request(line) + " came first";
        break;
      }
    }
    // The worst over every list_changed: calling without a relist, then nothing, then the rest.
    auto rank = [](const std::string& o) {
      return o == "called-without-relist" ? 3 : o == "not-reached" ? 2 : o == "relisted" ? 1 : 0;
    };
    if (changes == 1 || rank(here) > rank(result)) result = here;
  }
  return {result, std::to_string(changes) + " catalog change(s) of " + check.server +
                      " (tools/list_changed, or unannounced in the stateless era)" + detail};
}

}  // namespace

CheckKind relist_kind() {
  return make_check_kind(
      "relist",
      {{"relisted-before-call",
        "after tools/list_changed (or in a new session) the client listed tools again before its next call"},
       {"relisted", "after tools/list_changed (or in a new session) the client listed tools again and made no call"},
       {"called-without-relist",
        "after tools/list_changed (or in a new session) the client called a tool without listing again"},
       {"not-reached", "tools/list_changed was never sent (or no new session began), or nothing followed", true}},
      read_relist, judge_relist);
}

}  // namespace mcp_hints::conformance
