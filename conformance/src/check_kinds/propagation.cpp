// propagation: every later request of a session (to the servers named) against the #711
// annotation the session's results set. Handshakes count: #711's session is the host's (as in
// cross-server propagation), so a server connected after a result set the annotation gets its
// initialize or server/discover with it, as "all subsequent requests in that session" says.
#include <algorithm>

#include "check_kind.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct Propagation {
  std::string key;                   // the annotation judged
  std::vector<std::string> servers;  // whose requests must carry it; empty: every server's
  bool after_reconnect = false;      // only the requests sent on a reconnection after a dropped connection
};

Propagation read_propagation(CheckReader& in) {
  Propagation check{in.text("key"), in.servers("servers")};
  if (const json* after = in.find("after")) {
    if (*after != "reconnect") in.fail("after", "a propagation check is judged after a reconnect only");
    check.after_reconnect = true;
  }
  return check;
}

// Whether `line` went out on a connection opened after the server dropped an earlier one of the
// same session (a scripted close): a reconnection, which goes on with the session. Stateless HTTP
// has no connection to reopen: every request after the drop is one.
bool on_reconnection(const RunRecord& record, const WireLine& line) {
  const bool stateless = line.connection == mock::kStatelessHttpConnection;
  for (const auto& other : record.wire)
    if (other.server == line.server && other.session == line.session &&
        (stateless || other.connection != line.connection) && other.event == mock::kScriptedCloseEvent &&
        other.time <= line.time)
      return true;
  return false;
}

bool in_servers(const Propagation& check, const std::string& server) {
  return check.servers.empty() || std::find(check.servers.begin(), check.servers.end(), server) != check.servers.end();
}

Observation judge_propagation(const Propagation& check, const RunRecord& record) {
  std::set<std::size_t> sessions;
  for (const auto& line : record.wire) sessions.insert(line.session);
  bool any_source = false;
  std::size_t checked = 0;
  std::string worst, detail;
  const WireLine* worst_line = nullptr;
  for (std::size_t session : sessions) {
    AnnotationExpectation expected;
    for (const auto& line : record.wire) {
      if (line.session != session) continue;
      if (const json* value = result_annotation(line, check.key)) {
        expected.see(check.key, *value);
        any_source = any_source || expected.set;
        continue;
      }
      if (!expected.set || !record.is_request_in(line) || !in_servers(check, line.server)) continue;
      if (check.after_reconnect && !on_reconnection(record, line)) continue;
      ++checked;
      const std::string problem = expected.judge(check.key, request_annotation(line, check.key));
      if (problem.empty() || worst == "dropped") continue;
      if (worst.empty() || problem == "dropped") {
        worst = problem;
        worst_line = &line;
        const json* carried = request_annotation(line, check.key);
        detail = "; " + describe_request(line) + " (session " + std::to_string(session) + ") carried " +
                 (carried ? check.key + " " + carried->dump() : "no " + check.key);
      }
    }
  }
  if (!any_source) return {"source-not-reached", "no result carried " + check.key};
  if (checked == 0 && check.after_reconnect)
    return {"not-reconnected", "no request reached the server again after it dropped the connection"};
  if (checked == 0) return {"no-later-request", "no request followed the first result carrying " + check.key};
  return {worst.empty() ? "carried" : worst, std::to_string(checked) + " later request(s) checked" + detail,
          worst_line};
}

}  // namespace

CheckKind propagation_kind() {
  return make_check_kind(
      "propagation",
      {{"carried", "every later request in the session carried the annotation at the level seen or higher"},
       {"weakened", "a later request carried the annotation at a lower level, or missing attributions"},
       {"dropped", "a later request did not carry the annotation"},
       {"no-later-request", "no request followed the result that set the annotation", true},
       {"not-reconnected",
        "(after: reconnect) the client did not use the server again after it dropped the connection, which it "
        "may: nothing to judge (not applicable)",
        false, true},
       {"source-not-reached", "no result carrying the annotation was ever sent", true}},
      read_propagation, judge_propagation);
}

}  // namespace mcp_hints::conformance
