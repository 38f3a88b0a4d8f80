// The judge on hand-made records: every outcome of every kind of check, the verdict scaling by
// level, not applicable, checks that name what a scenario lacks or a kind not in the table, and
// the kinds and outcomes the scenario schema publishes.
#include <gtest/gtest.h>

#include <fstream>

#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints::conformance;
namespace mock = mcp_hints::mock;

// A record written step by step, one millisecond apart.
class Record {
 public:
  Record& in(const json& message, const std::string& server = "main", const std::string& connection = "c1") {
    return line(server, connection, "in", message);
  }
  Record& out(const json& message, const std::string& server = "main", const std::string& connection = "c1") {
    return line(server, connection, "out", message);
  }
  Record& call(const std::string& tool, const json& annotations = json(), const std::string& server = "main",
               const std::string& connection = "c1") {
    json params = {{"name", tool}, {"arguments", json::object()}};
    if (!annotations.is_null()) params["_meta"] = {{"annotations", annotations}};
    last_id_ = ++id_;
    return in({{"jsonrpc", "2.0"}, {"id", last_id_}, {"method", "tools/call"}, {"params", params}}, server, connection);
  }
  Record& list(const json& annotations = json(), const std::string& server = "main",
               const std::string& connection = "c1") {
    json params = json::object();
    if (!annotations.is_null()) params["_meta"] = {{"annotations", annotations}};
    last_id_ = ++id_;
    return in({{"jsonrpc", "2.0"}, {"id", last_id_}, {"method", "tools/list"}, {"params", params}}, server, connection);
  }
  // Answers the last request.
  Record& result(const json& annotations = json(), const std::string& server = "main",
                 const std::string& connection = "c1") {
    json result = {{"content", json::array()}};
    if (!annotations.is_null()) result["_meta"] = {{"annotations", annotations}};
    return out({{"jsonrpc", "2.0"}, {"id", last_id_}, {"result", result}}, server, connection);
  }
  Record& transient_failure(json data = {{"transient", true}}) {
    return out({{"jsonrpc", "2.0"},
                {"id", last_id_},
                {"error", {{"code", -32603}, {"message", "try again"}, {"data", data}}}});
  }
  // Answers the last request (a tools/list) with a listing of this cacheScope.
  Record& listing(const std::string& cache_scope, const std::string& server = "main",
                  const std::string& connection = "c1") {
    return out(
        {{"jsonrpc", "2.0"}, {"id", last_id_}, {"result", {{"tools", json::array()}, {"cacheScope", cache_scope}}}},
        server, connection);
  }
  // The lines from now on come under this authorization context ("": none).
  Record& as(const std::string& authorization) {
    authorization_ = authorization;
    return *this;
  }
  // The clock jumps: the next line comes `seconds` later.
  Record& wait(double seconds) {
    time_ += seconds;
    return *this;
  }
  Record& retry_event(const std::string& tool, int attempt) {
    return event("retry", {{"tool", tool}, {"attempt", attempt}, {"delayMs", 10}});
  }
  // The server drops the connection as a scenario's close step does (stdio: it exits).
  Record& dropped(const std::string& server = "main", const std::string& connection = "c1") {
    line(server, connection, "", json());
    record_.wire.back().event = mock::kScriptedCloseEvent;
    return *this;
  }
  Record& list_changed(const std::string& server = "main", const std::string& connection = "c1") {
    return out({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}}, server, connection);
  }
  // The stateless era's change of the catalog that no subscription announced (the mock's event).
  Record& catalog_changed(const std::string& server = "main", const std::string& connection = "c1") {
    line(server, connection, "", json());
    record_.wire.back().event = mock::kCatalogChangedEvent;
    return *this;
  }
  Record& event(const std::string& type, json data = json::object()) {
    data["type"] = type;
    record_.events.push_back({type, tick(), data, record_.events.size() + 1});
    return *this;
  }
  Record& prompt(const std::string& tool, const std::string& decision) {
    event("confirmation_requested", {{"tool", tool}});
    return event("user_decision", {{"tool", tool}, {"decision", decision}});
  }
  // A prompt and its decision that name the authorization context they were for.
  Record& prompt_for(const std::string& authorization, const std::string& tool, const std::string& decision) {
    event("confirmation_requested", {{"tool", tool}, {"authorization", authorization}});
    return event("user_decision", {{"tool", tool}, {"decision", decision}, {"authorization", authorization}});
  }
  // A prompt that shows a server's input request (the contract's `input`).
  Record& input_prompt(const std::string& tool, const std::string& input, const std::string& decision) {
    event("confirmation_requested", {{"tool", tool}, {"input", input}});
    return event("user_decision", {{"tool", tool}, {"decision", decision}});
  }
  const RunRecord& get() {
    record_.index();
    return record_;
  }

 private:
  Record& line(const std::string& server, const std::string& connection, const std::string& direction,
               const json& message) {
    WireLine w;
    w.server = server;
    w.connection = connection;
    auto [it, added] = sessions_[server].emplace(connection, sessions_[server].size() + 1);
    w.session = it->second;
    w.direction = direction;
    w.time = tick();
    w.message = message;
    w.authorization = authorization_;
    record_.wire.push_back(std::move(w));
    return *this;
  }
  double tick() { return time_ += 0.001; }
  RunRecord record_;
  double time_ = 1000;
  long long id_ = 0, last_id_ = 0;
  std::map<std::string, std::map<std::string, std::size_t>> sessions_;
  std::string authorization_;
};

json scenario_with(const json& expect,
                   const json& servers = {
                       {"main", {{"tools", {{{"name", "rm"}, {"inputSchema", {{"type", "object"}}}}}}}}}) {
  return {
      {"id", "t.x"},
      {"title", "t"},
      {"checks", "c"},
      {"proposals", {{{"proposal", "p"}, {"section", "s"}}}},
      {"level", "SHOULD"},
      {"basis", "spec/json-rpc"},  // a MUST of the specification: any level may rest on it, and it counts for the tiers
      {"servers", servers},
      {"task", json::array()},
      {"expect", expect}};
}

// A MUST check of `kind` with `members`, read as read_checks reads a scenario's: the server
// "main" lists the tools the check names, and the servers it names are there too.
CheckSpec check(const std::string& kind, json members = json::object()) {
  members.update({{"id", "c"}, {"title", "t"}, {"kind", kind}, {"level", "MUST"}});
  if (!members.contains("traces")) members["traces"] = json::object();
  // A check must grade a refusal the client made on its own (caution) at pass or info.
  const auto& outcomes = outcomes_by_kind().at(kind);
  for (const char* caution : {"blocked", "not-fulfilled"})
    if (std::any_of(outcomes.begin(), outcomes.end(), [&](const Outcome& o) { return o.name == caution; }) &&
        !members["traces"].contains(caution))
      members["traces"][caution] = "pass";
  json tools = json::array();
  for (const auto& tool : {json::json_pointer("/tool"), json::json_pointer("/requires/tool")})
    if (members.contains(tool)) tools.push_back({{"name", members[tool]}, {"inputSchema", {{"type", "object"}}}});
  json servers = {{"main", {{"tools", tools}}}};
  for (const auto& server : members.value("servers", json::array()))
    servers[server.get<std::string>()] = {{"tools", json::array()}};
  auto scenario = mock::parse_scenario(scenario_with(json::array(), servers), "t.json");
  scenario.document["expect"] = json::array({members});  // past the schema, which wants traces these need not list
  return read_checks(scenario).at(0);
}

std::string outcome(const CheckSpec& c, Record& r) { return judge_check(c, r.get(), "stdio").outcome; }
std::string outcome_of(const CheckSpec& c, const RunRecord& r) { return judge_check(c, r, "stdio").outcome; }

TEST(Judge, GateOutcomes) {
  const auto gate = check("gate", {{"tool", "rm"}});
  {
    Record r;
    r.prompt("rm", "approve").call("rm").result();
    EXPECT_EQ(outcome(gate, r), "confirmed-called");
  }
  {
    Record r;
    r.call("rm").result();
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
  {
    Record r;
    r.prompt("rm", "deny").call("rm");
    EXPECT_EQ(outcome(gate, r), "called-despite-denial");
  }
  {
    Record r;
    r.prompt("rm", "approve").call("rm").call("rm");
    EXPECT_EQ(outcome(gate, r), "repeated-without-confirmation");
  }
  {
    Record r;
    r.prompt("rm", "approve").call("rm").prompt("rm", "approve").call("rm");
    EXPECT_EQ(outcome(gate, r), "confirmed-called");
  }
  {
    Record r;
    r.prompt("rm", "deny");
    EXPECT_EQ(outcome(gate, r), "denied-not-called");
  }
  {
    Record r;
    r.event("blocked", {{"tool", "rm"}, {"reason", "no"}});
    EXPECT_EQ(outcome(gate, r), "blocked");
  }
  {
    Record r;
    r.prompt("rm", "approve");
    EXPECT_EQ(outcome(gate, r), "approved-not-called");
  }
  {
    Record r;
    r.event("confirmation_requested", {{"tool", "rm"}});
    EXPECT_EQ(outcome(gate, r), "prompt-unanswered");
  }
  {
    Record r;
    r.call("other").result();
    EXPECT_EQ(outcome(gate, r), "not-reached");
  }
  // An approval given after the call does not count for it.
  {
    Record r;
    r.call("rm").prompt("rm", "approve");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
  // A decision with no prompt before it means nothing.
  {
    Record r;
    r.event("user_decision", {{"tool", "rm"}, {"decision", "approve"}}).call("rm");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
  // Events for another tool, or another server, do not count.
  {
    Record r;
    r.prompt("ls", "approve").call("rm");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
  {
    Record r;
    r.event("confirmation_requested", {{"tool", "rm"}, {"server", "other"}})
        .event("user_decision", {{"tool", "rm"}, {"server", "other"}, {"decision", "approve"}})
        .call("rm");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
}

TEST(Judge, GateWithTwoConfirmationsAWindowAndAPrerequisite) {
  const auto multi = check("gate", {{"tool", "rm"}, {"confirmations", 2}});
  {
    Record r;
    r.prompt("rm", "approve").prompt("rm", "approve").call("rm");
    EXPECT_EQ(outcome(multi, r), "confirmed-called");
  }
  {
    Record r;
    r.prompt("rm", "approve").call("rm");
    EXPECT_EQ(outcome(multi, r), "under-confirmed");
  }
  {
    Record r;
    r.prompt("rm", "approve").prompt("rm", "deny");
    EXPECT_EQ(outcome(multi, r), "denied-not-called");
  }

  const auto after = check("gate", {{"tool", "sync"}, {"after", "list_changed"}});
  {
    Record r;
    r.call("sync").result();
    EXPECT_EQ(outcome(after, r), "not-reached");
  }  // never changed
  {
    Record r;  // the first call needed nothing; only the one after the change is judged
    r.call("sync").list_changed().result().prompt("sync", "approve").call("sync").result();
    EXPECT_EQ(outcome(after, r), "confirmed-called");
  }
  {
    Record r;  // an approval given before the change does not cover a call after it
    r.prompt("sync", "approve").call("sync").list_changed().result().call("sync");
    EXPECT_EQ(outcome(after, r), "called-unprompted");
  }

  const auto needs = check("gate", {{"tool", "send"}, {"requires", {{"server", "main"}, {"tool", "read"}}}});
  {
    Record r;
    r.call("send");
    EXPECT_EQ(outcome(needs, r), "prerequisite-not-met");
  }
  {
    Record r;
    r.call("read").transient_failure().call("send");
    EXPECT_EQ(outcome(needs, r), "prerequisite-not-met");
  }
  {
    Record r;
    r.call("read").result().call("send");
    EXPECT_EQ(outcome(needs, r), "called-unprompted");
  }
  {
    Record r;  // an approval given in one session does not cover a call in the next
    r.call("read").result().prompt("send", "approve");
    r.call("read", json(), "main", "c2").result().call("send", json(), "main", "c2");
    EXPECT_EQ(outcome(needs, r), "called-unprompted");
  }
  {
    Record r;  // nor is a call in a new session a repeat of one confirmed in the last
    r.call("read").result().prompt("send", "approve").call("send").result();
    r.call("read", json(), "main", "c2").result().call("send", json(), "main", "c2");
    EXPECT_EQ(outcome(needs, r), "called-unprompted");
  }
  {
    Record r;  // each session confirmed on its own passes
    r.call("read").result().prompt("send", "approve").call("send").result();
    r.call("read", json(), "main", "c2").result().prompt("send", "approve").call("send", json(), "main", "c2");
    const auto result = judge_check(needs, r.get(), "stdio");
    EXPECT_EQ(result.outcome, "confirmed-called");
    // The detail counts the run's approvals, not only the last session's.
    EXPECT_NE(result.detail.find("2 prompt(s), 2 approval(s)"), std::string::npos) << result.detail;
  }
  {
    Record r;  // an approval given before the prerequisite's result does not cover a call after it
    r.prompt("send", "approve").call("read").result().call("send");
    EXPECT_EQ(outcome(needs, r), "called-unprompted");
  }
  {
    Record r;  // a confirmed call before the prerequisite says nothing of the gate: not reached
    r.prompt("send", "approve").call("send").result().call("read").result();
    EXPECT_EQ(outcome(needs, r), "not-reached");
  }
  {
    Record r;  // the prerequisite answered once is enough, whatever came before it
    r.call("read").transient_failure().call("read").result().prompt("send", "approve").call("send");
    EXPECT_EQ(outcome(needs, r), "confirmed-called");
  }
}

TEST(Judge, PropagationOutcomes) {
  const auto sensitive = check("propagation", {{"key", "sensitiveHint"}});
  {
    Record r;
    r.call("a").result();
    EXPECT_EQ(outcome(sensitive, r), "source-not-reached");
  }
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}});
    EXPECT_EQ(outcome(sensitive, r), "no-later-request");
  }
  {
    Record r;
    r.call("a")
        .result({{"sensitiveHint", "medium"}})
        .call("b", {{"sensitiveHint", "medium"}})
        .result({{"sensitiveHint", "high"}});
    r.list({{"sensitiveHint", "high"}}).call("c", {{"sensitiveHint", "high"}});
    EXPECT_EQ(outcome(sensitive, r), "carried");
  }
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).call("b", {{"sensitiveHint", "medium"}});
    EXPECT_EQ(outcome(sensitive, r), "weakened");
  }
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).list();
    EXPECT_EQ(outcome(sensitive, r), "dropped");
  }
  // A malformed level sets nothing.
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "very"}}).call("b");
    EXPECT_EQ(outcome(sensitive, r), "source-not-reached");
  }
  // Another session is judged on its own.
  {
    Record r;
    r.call("a")
        .result({{"sensitiveHint", "low"}})
        .call("b", {{"sensitiveHint", "low"}})
        .call("c", json(), "main", "c2");
    EXPECT_EQ(outcome(sensitive, r), "carried");
  }

  const auto flag = check("propagation", {{"key", "privateHint"}});
  {
    Record r;
    r.call("a").result({{"privateHint", true}}).call("b", {{"privateHint", true}});
    EXPECT_EQ(outcome(flag, r), "carried");
  }
  {
    Record r;
    r.call("a").result({{"privateHint", true}}).call("b", {{"privateHint", false}});
    EXPECT_EQ(outcome(flag, r), "weakened");
  }

  const auto attribution = check("propagation", {{"key", "attribution"}});
  {
    Record r;
    r.call("a").result({{"attribution", {"x"}}}).call("b", {{"attribution", {"x"}}}).result({{"attribution", {"y"}}});
    r.call("c", {{"attribution", {"y", "x", "z"}}});
    EXPECT_EQ(outcome(attribution, r), "carried");
  }
  {
    Record r;
    r.call("a")
        .result({{"attribution", {"x"}}})
        .call("b", {{"attribution", {"x"}}})
        .result({{"attribution", {"y"}}})
        .call("c", {{"attribution", {"y"}}});
    EXPECT_EQ(outcome(attribution, r), "weakened");
  }

  // Across servers: only the servers named are judged.
  const auto to_b = check("propagation", {{"key", "sensitiveHint"}, {"servers", {"b"}}});
  {
    Record r;
    r.call("read", json(), "a", "a1").result({{"sensitiveHint", "low"}}, "a", "a1").call("more", json(), "a", "a1");
    r.list({{"sensitiveHint", "low"}}, "b", "b1");
    EXPECT_EQ(outcome(to_b, r), "carried");
  }
  {
    Record r;
    r.call("read", json(), "a", "a1").result({{"sensitiveHint", "low"}}, "a", "a1").list(json(), "b", "b1");
    EXPECT_EQ(outcome(to_b, r), "dropped");
  }
  // A server connected after the annotation was set: its handshake (either era) is a later
  // request of the session too, and is judged like any other.
  for (const std::string method : {"initialize", "server/discover"}) {
    auto handshake = [&](const json& annotations) {
      json params = {{"protocolVersion", "2025-11-25"}};
      if (!annotations.is_null()) params["_meta"] = {{"annotations", annotations}};
      return json{{"jsonrpc", "2.0"}, {"id", 90}, {"method", method}, {"params", params}};
    };
    Record bare, carried;
    bare.call("read", json(), "a", "a1").result({{"sensitiveHint", "low"}}, "a", "a1");
    bare.in(handshake(json()), "b", "b1").list({{"sensitiveHint", "low"}}, "b", "b1");
    EXPECT_EQ(outcome(to_b, bare), "dropped") << method;
    carried.call("read", json(), "a", "a1").result({{"sensitiveHint", "low"}}, "a", "a1");
    carried.in(handshake({{"sensitiveHint", "low"}}), "b", "b1").list({{"sensitiveHint", "low"}}, "b", "b1");
    EXPECT_EQ(outcome(to_b, carried), "carried") << method;
  }
}

// A connection the server dropped (a scripted close) is followed by a reconnection that goes on
// with the client's session, unless the client begins a new one (a new_session event) between.
TEST(Judge, AReconnectionAfterADroppedConnectionGoesOnWithTheSession) {
  const json high = {{"sensitiveHint", "high"}};
  auto numbered = [](Record& r) {
    RunRecord record = r.get();
    number_sessions(record);
    return record;
  };
  auto drop = [&](Record& r) -> Record& { return r.call("read").result(high).call("sync", high).dropped(); };
  const auto after = check("propagation", {{"key", "sensitiveHint"}, {"after", "reconnect"}});
  const auto every = check("propagation", {{"key", "sensitiveHint"}});
  {
    Record r;
    drop(r).list(high, "main", "c2").call("notes", high, "main", "c2");
    const RunRecord record = numbered(r);
    EXPECT_EQ(record.wire.back().session, 1u);
    EXPECT_EQ(outcome_of(after, record), "carried");
    EXPECT_EQ(outcome_of(every, record), "carried");
  }
  {
    Record r;
    drop(r).list(json(), "main", "c2").call("notes", high, "main", "c2");
    const RunRecord record = numbered(r);
    EXPECT_EQ(outcome_of(after, record), "dropped");
    EXPECT_EQ(outcome_of(every, record), "dropped");
  }
  {
    Record r;  // the client gave the server up: allowed, and nothing to judge
    const RunRecord record = numbered(drop(r));
    EXPECT_EQ(outcome_of(after, record), "not-reconnected");
    EXPECT_EQ(judge_check(after, record, "stdio").verdict, Verdict::not_applicable);
  }
  {
    Record r;  // a session of the client's own between: judged apart
    drop(r).event("new_session").list(json(), "main", "c2");
    const RunRecord record = numbered(r);
    EXPECT_EQ(record.wire.back().session, 2u);
    EXPECT_EQ(outcome_of(after, record), "not-reconnected");
  }
  {
    Record r;  // the client closed the first connection itself: a new session, as before
    r.call("read").result(high).list(json(), "main", "c2");
    EXPECT_EQ(numbered(r).wire.back().session, 2u);
  }
  {
    Record r;  // over stateless HTTP every request after the drop is a reconnection
    const std::string stateless(mock::kStatelessHttpConnection);
    r.call("read", json(), "main", stateless).result(high, "main", stateless).dropped("main", stateless);
    r.call("notes", json(), "main", stateless);
    EXPECT_EQ(outcome_of(after, numbered(r)), "dropped");
  }
}

TEST(Judge, CleanStartRelistEscalationRetry) {
  const auto clean = check("clean-start", {{"key", "sensitiveHint"}});
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).call("b", {{"sensitiveHint", "high"}});
    EXPECT_EQ(outcome(clean, r), "no-second-session");
  }
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).list(json(), "main", "c2");
    EXPECT_EQ(outcome(clean, r), "clean");
  }
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).list({{"sensitiveHint", "high"}}, "main", "c2");
    EXPECT_EQ(outcome(clean, r), "leaked");
  }
  {
    Record r;  // once the new session's own result sets it, carrying it is right
    r.call("a")
        .result({{"sensitiveHint", "high"}})
        .call("a", json(), "main", "c2")
        .result({{"sensitiveHint", "low"}}, "main", "c2");
    r.call("b", {{"sensitiveHint", "low"}}, "main", "c2");
    EXPECT_EQ(outcome(clean, r), "clean");
  }

  const auto relist = check("relist");
  {
    Record r;
    r.call("a").result();
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }
  {
    Record r;
    r.call("a").list_changed().result().list().call("a");
    EXPECT_EQ(outcome(relist, r), "relisted-before-call");
  }
  {
    Record r;
    r.call("a").list_changed().result().list();
    EXPECT_EQ(outcome(relist, r), "relisted");
  }
  {
    Record r;
    r.call("a").list_changed().result().call("a").list();
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
  }
  {
    Record r;
    r.call("a").list_changed().result();
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }

  const auto escalation = check("escalation");
  {
    Record r;
    r.call("a").result({{"maliciousActivityHint", false}});
    EXPECT_EQ(outcome(escalation, r), "not-reached");
  }
  {
    Record r;
    r.call("a").result({{"maliciousActivityHint", true}}).event("escalated", {{"why", "x"}});
    EXPECT_EQ(outcome(escalation, r), "escalated");
  }
  {
    Record r;
    r.event("escalated").call("a").result({{"maliciousActivityHint", true}});
    EXPECT_EQ(outcome(escalation, r), "not-escalated");
  }

  const auto retry = check("retry", {{"tool", "get"}, {"maxAttempts", 3}});
  {
    Record r;
    EXPECT_EQ(outcome(retry, r), "not-reached");
    r.event("blocked", {{"tool", "put"}});  // another tool's refusal says nothing of this one
    EXPECT_EQ(outcome(retry, r), "not-reached");
    r.event("blocked", {{"tool", "get"}});  // refused on its own, never called: nothing to retry
    EXPECT_EQ(outcome(retry, r), "blocked");
    r.call("get").transient_failure();  // ... but a call after all is judged as a call
    EXPECT_EQ(outcome(retry, r), "not-retried");
  }
  {
    Record r;  // called on another server, refused by a block naming no server: no refusal here
    r.call("get", json(), "other").result().event("blocked", {{"tool", "get"}});
    EXPECT_EQ(outcome(retry, r), "not-reached");
    r.event("blocked", {{"tool", "get"}, {"server", "main"}});  // one naming this server is
    EXPECT_EQ(outcome(retry, r), "blocked");
  }
  {
    Record r;
    r.call("get").result();
    EXPECT_EQ(outcome(retry, r), "no-failure");
  }
  {
    Record r;
    r.call("get").transient_failure();
    EXPECT_EQ(outcome(retry, r), "not-retried");
  }
  {
    Record r;
    r.call("get").transient_failure().retry_event("get", 2).call("get").transient_failure().retry_event("get", 3);
    r.call("get").result();
    const auto result = judge_check(retry, r.get(), "stdio");
    EXPECT_EQ(result.outcome, "retried-within-bound");
    EXPECT_NE(result.detail.find("intervals 3 ms 3 ms"), std::string::npos) << result.detail;  // the timing is recorded
  }
  {
    Record r;  // a retry without its event, one with the wrong attempt number, one after the call
    r.call("get").transient_failure().call("get").transient_failure().retry_event("get", 2).call("get").result();
    EXPECT_EQ(outcome(retry, r), "retried-unreported");
    Record late;
    late.call("get").transient_failure().call("get").retry_event("get", 2).result();
    EXPECT_EQ(outcome(retry, late), "retried-unreported");
    Record other_tool;
    other_tool.call("get").transient_failure().retry_event("put", 2).call("get").result();
    EXPECT_EQ(outcome(retry, other_tool), "retried-unreported");
  }
  {
    const json wait_300 = {{"transient", true}, {"retryAfterMs", 300}};
    Record soon;  // 299 ms after the failure asked for 300
    soon.call("get").transient_failure(wait_300).wait(0.297).retry_event("get", 2).call("get").result();
    const auto result = judge_check(retry, soon.get(), "stdio");
    EXPECT_EQ(result.outcome, "retried-too-soon");
    EXPECT_NE(result.detail.find("the 2nd call came 299 ms after a failure that asked for 300 ms"), std::string::npos)
        << result.detail;
    Record waited;  // 301 ms: long enough, at the boundary
    waited.call("get").transient_failure(wait_300).wait(0.299).retry_event("get", 2).call("get").result();
    EXPECT_EQ(outcome(retry, waited), "retried-within-bound");
    Record unasked;  // no retryAfterMs: no wait is owed
    unasked.call("get").transient_failure().retry_event("get", 2).call("get").result();
    EXPECT_EQ(outcome(retry, unasked), "retried-within-bound");
    Record beyond;  // the bound is judged first
    for (int i = 0; i < 4; ++i) beyond.call("get").transient_failure(wait_300);
    EXPECT_EQ(outcome(retry, beyond), "retried-beyond-bound");
  }
  {
    Record r;
    for (int i = 0; i < 4; ++i) r.call("get").transient_failure();
    EXPECT_EQ(outcome(retry, r), "retried-beyond-bound");
  }
}

// An events file timed in another unit or on another clock cannot be ordered against the wire: it
// would make a confirmed call look unprompted. The run says so, and every check is not testable.
TEST(Judge, EventsOutsideTheRunMakeEveryCheckNotTestable) {
  Record r;  // the record's clock starts at 1000 s; the client ran from 1000 to 1001
  r.event("confirmation_requested", {{"tool", "rm"}}).call("rm").result();
  RunRecord good = r.get();
  check_event_times(good, 1000, 1001);
  EXPECT_EQ(good.events_unusable, "");
  EXPECT_EQ(outcome_of(check("gate", {{"tool", "rm"}}), good), "called-unprompted");  // no decision: not confirmed

  struct Case {
    double time;
    const char* says;
  };
  for (const Case& c : {Case{1000.0005 * 1000, "milliseconds"}, Case{12.5, "monotonic"}, Case{1003.5, "another clock"},
                        Case{997.5, "another clock"}}) {
    RunRecord bad = r.get();
    bad.events.push_back({"user_decision", c.time, {{"type", "user_decision"}, {"tool", "rm"}}, 2});
    check_event_times(bad, 1000, 1001);
    EXPECT_NE(bad.events_unusable.find("events line 2 has time"), std::string::npos) << bad.events_unusable;
    EXPECT_NE(bad.events_unusable.find(c.says), std::string::npos) << bad.events_unusable;
    ASSERT_EQ(bad.notes.size(), 1u);
    for (const auto& kind : {check("gate", {{"tool", "rm"}}), check("propagation", {{"key", "sensitiveHint"}})}) {
      const auto result = judge_check(kind, bad, "stdio");
      EXPECT_EQ(result.outcome, kEventsUnusable);
      EXPECT_EQ(result.verdict, Verdict::not_testable);
      EXPECT_EQ(result.detail, bad.events_unusable);
    }
  }
  RunRecord slack = r.get();  // within a second of the run: clocks read by two processes
  slack.events.push_back({"user_decision", 1001.9, {{"type", "user_decision"}}, 2});
  check_event_times(slack, 1000, 1001);
  EXPECT_EQ(slack.events_unusable, "");
}

// One rule for levels: a gate is no stronger than the vocabularies whose values decide the call.
// A MUST scenario gating a tool known to send data outside only through proposal 1's advisory
// mcp.dev/effect is a SHOULD check; a tool without hints (the MUST of "do not assume hints") keeps
// the scenario's level.
TEST(Judge, AGateIsNoStrongerThanTheVocabulariesThatDecideTheCall) {
  const json tools = {
      {{"name", "send"}, {"inputSchema", {{"type", "object"}}}, {"_meta", {{"mcp.dev/effect", "external"}}}},
      {{"name", "bare"}, {"inputSchema", {{"type", "object"}}}},
      {{"name", "agentic"},
       {"inputSchema", {{"type", "object"}}},
       {"annotations", {{"readOnlyHint", false}, {"destructiveHint", false}, {"agencyHint", true}}}}};
  json document = scenario_with(
      json::array(
          {{{"id", "send"}, {"title", "t"}, {"kind", "gate"}, {"tool", "send"}, {"traces", {{"blocked", "pass"}}}},
           {{"id", "bare"}, {"title", "t"}, {"kind", "gate"}, {"tool", "bare"}, {"traces", {{"blocked", "pass"}}}},
           {{"id", "agentic"},
            {"title", "t"},
            {"kind", "gate"},
            {"tool", "agentic"},
            {"traces", {{"blocked", "pass"}}}}}),
      {{"main", {{"tools", tools}}}});
  document["level"] = "MUST";
  const auto checks = read_checks(mock::parse_scenario(document, "t.json"));
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].level, "SHOULD");
  EXPECT_NE(checks[0].level_reason.find("no stronger than SHOULD (the scenario says MUST): the call is decided by "
                                        "policy-hints mcp.dev/effect \"external\""),
            std::string::npos)
      << checks[0].level_reason;
  EXPECT_NE(checks[0].level_reason.find("advisory"), std::string::npos) << checks[0].level_reason;
  EXPECT_EQ(checks[1].level, "MUST");
  EXPECT_EQ(checks[1].level_reason, "");
  EXPECT_EQ(checks[2].level, "MUST");  // agencyHint decides nothing here: no cap from its MAY
  // The scaled verdict follows the held level: a silent call is a warning, not a failure.
  Record r;
  r.call("send").result();
  EXPECT_EQ(judge_check(checks[0], r.get(), "stdio").verdict, Verdict::warning);
}

// A listing never outlives its session: in every later session, tools/list before the first call.
TEST(Judge, RelistInEveryNewSession) {
  const auto relist = check("relist", {{"when", "new-session"}});
  {
    Record r;
    r.list().call("a");
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }
  {
    Record r;
    r.list().call("a").list(json(), "main", "c2").call("a", json(), "main", "c2");
    EXPECT_EQ(outcome(relist, r), "relisted-before-call");
  }
  {
    Record r;  // the second session calls with the first session's listing
    r.list().call("a").call("a", json(), "main", "c2");
    const auto result = judge_check(relist, r.get(), "stdio");
    EXPECT_EQ(result.outcome, "called-without-relist");
    EXPECT_NE(result.detail.find("in session 2, tools/call a to main came first"), std::string::npos) << result.detail;
  }
  {
    Record r;  // the worst session decides
    r.list().call("a").list(json(), "main", "c2").call("a", json(), "main", "c2").call("a", json(), "main", "c3");
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
  }
}

// Stateless era: a call made once its listing's ttlMs ran out must come after a fresh listing.
TEST(Judge, RelistOnceTheListingsTtlRunsOut) {
  const auto relist = check("relist", {{"when", "ttl-expiry"}});
  auto listing = [](Record& r, int id, long long ttl_ms) -> Record& {
    r.in({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}, {"params", json::object()}});
    return r.out({{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"tools", json::array()}, {"ttlMs", ttl_ms}}}});
  };
  {
    Record r;  // every call within the listing's ttlMs: nothing to judge
    listing(r, 100, 300).call("a").wait(0.1).call("a");
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }
  {
    Record r;
    listing(r, 100, 300).call("a").wait(0.5);
    listing(r, 101, 300).call("a");
    EXPECT_EQ(outcome(relist, r), "relisted-before-call");
  }
  {
    Record r;  // the stale listing used: 500 ms after a listing fresh for 300
    listing(r, 100, 300).call("a").wait(0.5).call("a");
    const auto result = judge_check(relist, r.get(), "stdio");
    EXPECT_EQ(result.outcome, "called-without-relist");
    EXPECT_NE(result.detail.find("whose ttlMs was 300"), std::string::npos) << result.detail;
  }
  {
    Record r;  // ttlMs 0: stale at once (past the slack for the way back)
    listing(r, 100, 0).call("a").wait(0.2).call("a");
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
  }
  {
    Record r;  // the way back is not the client's fault: a call within the slack is fresh
    listing(r, 100, 300).wait(0.35).call("a");
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }
  {
    Record r;  // listed again once the listing ran out, then refused the call: relisted, no call to judge
    listing(r, 100, 300).call("a").wait(0.5);
    listing(r, 101, 300).event("blocked", {{"tool", "a"}});
    EXPECT_EQ(outcome(relist, r), "relisted");
  }
  {
    Record r;  // listed again while the first listing was fresh: no relist after expiry
    listing(r, 100, 300).call("a").wait(0.1);
    listing(r, 101, 300);
    EXPECT_EQ(outcome(relist, r), "not-reached");
  }
}

// Stateless era: a change no subscription announced is the client's to find once the listing it
// held runs out, not before ("fresh" for its ttlMs); one announced on a stream counts at once.
TEST(Judge, AnUnannouncedChangeCountsOnceTheListingHeldRunsOut) {
  const auto relist = check("relist");
  const auto gate = check("gate", {{"tool", "a"}, {"after", "list_changed"}});
  auto listing = [](Record& r, int id, long long ttl_ms) -> Record& {
    r.in({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}, {"params", json::object()}});
    return r.out({{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"tools", json::array()}, {"ttlMs", ttl_ms}}}});
  };
  {
    Record r;  // an hour's listing: the calls after the change used it rightly
    listing(r, 100, 3600000).call("a").catalog_changed().result().wait(0.5).call("a");
    EXPECT_EQ(outcome(relist, r), "unannounced-while-fresh");
    EXPECT_EQ(outcome(gate, r), "unannounced-while-fresh");
  }
  {
    Record r;  // the listing ran out 300 ms after it came: the call 500 ms later must relist first
    listing(r, 100, 300).call("a").catalog_changed().result().wait(0.5).call("a");
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
  {
    Record r;  // a call while fresh is not judged; the one after expiry is, and followed a relist
    listing(r, 100, 300).call("a").catalog_changed().result().call("a").wait(0.5);
    listing(r, 101, 300).call("a");
    EXPECT_EQ(outcome(relist, r), "relisted-before-call");
  }
  {
    Record r;  // ttlMs 0: stale at once, so the next call must relist
    listing(r, 100, 0).call("a").catalog_changed().result().call("a");
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
  }
  {
    Record r;  // announced (a subscription asked for it): at once, however long the listing's ttlMs
    listing(r, 100, 3600000).call("a").list_changed().result().call("a");
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
    EXPECT_EQ(outcome(gate, r), "called-unprompted");
  }
}

// resubscribe: "On stdio, if the connection is terminated and then re-established, the client MUST
// re-send subscriptions/listen" (subscriptions, 2026-07-28); a client that held none is not judged.
TEST(Judge, ResubscribeOnTheReconnectionAfterADroppedConnection) {
  const auto resubscribe = check("resubscribe");
  auto listen = [](Record& r, const std::string& connection, int id) -> Record& {
    return r.in({{"jsonrpc", "2.0"},
                 {"id", id},
                 {"method", "subscriptions/listen"},
                 {"params", {{"notifications", {{"toolsListChanged", true}}}}}},
                "main", connection);
  };
  auto numbered = [](Record& r) {
    RunRecord record = r.get();
    number_sessions(record);
    return record;
  };
  {
    Record r;  // nothing dropped
    listen(r, "c1", 1).call("a");
    EXPECT_EQ(judge_check(resubscribe, numbered(r), "stdio").outcome, "not-reached");
  }
  {
    Record r;
    listen(r, "c1", 1).call("a").dropped();
    listen(r, "c2", 2).call("b", json(), "main", "c2");
    EXPECT_EQ(judge_check(resubscribe, numbered(r), "stdio").outcome, "resubscribed");
  }
  {
    Record r;  // the reconnection used without a subscription
    listen(r, "c1", 1).call("a").dropped().list(json(), "main", "c2").call("b", json(), "main", "c2");
    const RunRecord record = numbered(r);
    const auto result = judge_check(resubscribe, record, "stdio");
    EXPECT_EQ(result.outcome, "not-resubscribed");
    EXPECT_EQ(result.verdict, Verdict::fail);
    EXPECT_NE(result.detail.find("tools/list to main"), std::string::npos) << result.detail;
  }
  {
    Record r;  // a new session of the client's is not a reconnection: it begins afresh
    listen(r, "c1", 1).call("a").dropped().event("new_session").call("b", json(), "main", "c2");
    EXPECT_EQ(judge_check(resubscribe, numbered(r), "stdio").outcome, "not-reconnected");
  }
  {
    Record r;  // no subscription held: nothing to re-establish (not applicable)
    r.call("a").dropped().call("b", json(), "main", "c2");
    const auto result = judge_check(resubscribe, numbered(r), "stdio");
    EXPECT_EQ(result.outcome, "never-subscribed");
    EXPECT_EQ(result.verdict, Verdict::not_applicable);
  }
  {
    Record r;  // the server not used again
    listen(r, "c1", 1).call("a").dropped();
    EXPECT_EQ(judge_check(resubscribe, numbered(r), "stdio").outcome, "not-reconnected");
  }
}

TEST(Judge, InputRequestOutcomes) {
  const auto input = check("input-request", {{"tool", "archive"}});
  const json requests = {{"ok", {{"method", "elicitation/create"}, {"params", {{"message", "Archive?"}}}}}};
  auto call = [](Record& r, int id, const json& extra = json::object()) -> Record& {
    json params = {{"name", "archive"}};
    params.update(extra);
    return r.in({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}});
  };
  auto asks = [&](Record& r, int id) -> Record& {
    call(r, id);
    return r.out({{"jsonrpc", "2.0"},
                  {"id", id},
                  {"result", {{"resultType", "input_required"}, {"inputRequests", requests}, {"requestState", "s1"}}}});
  };
  auto answer = [](const std::string& action, bool state = true) {
    json extra = {{"inputResponses", {{"ok", {{"action", action}}}}}};
    if (state) extra["requestState"] = "s1";
    return extra;
  };
  {
    Record r;
    r.call("archive").result();
    EXPECT_EQ(outcome(input, r), "not-reached");
    r.event("blocked", {{"tool", "archive"}});  // a refusal after a call is no refusal of the call
    EXPECT_EQ(outcome(input, r), "not-reached");
  }
  {
    Record r;  // refused on its own, never called: no input request to show
    r.event("blocked", {{"tool", "archive"}});
    EXPECT_EQ(outcome(input, r), "blocked");
  }
  {
    // A client that declared no elicitation is never asked: the server refuses the call with
    // -32021, and how the client handles an input request is not in question (not applicable).
    auto refused = [&](Record& r, int id, int code,
                       const json& required = {{"elicitation", {{"form", json::object()}}}},
                       const json& extra = json::object()) -> Record& {
      call(r, id, extra);
      return r.out({{"jsonrpc", "2.0"},
                    {"id", id},
                    {"error",
                     {{"code", code},
                      {"message", "Missing required client capability"},
                      {"data", {{"requiredCapabilities", required}}}}}});
    };
    Record r;
    refused(r, 1, -32021);
    const auto result = judge_check(input, r.get(), "http");
    EXPECT_EQ(result.outcome, "capability-not-declared");
    EXPECT_EQ(result.verdict, Verdict::not_applicable);
    EXPECT_NE(result.detail.find("-32021"), std::string::npos) << result.detail;
    EXPECT_NE(result.detail.find("elicitation"), std::string::npos) << result.detail;
    Record other;  // another error is no such refusal, nor a refusal for what no input request needs
    refused(other, 1, -32603);
    refused(other, 2, -32021, {{"experimental", json::object()}});
    EXPECT_EQ(outcome(input, other), "not-reached");
    Record declared_later;  // asked once it declared the capability: judged on what it was asked
    refused(declared_later, 1, -32021);
    asks(declared_later, 2);
    call(declared_later, 3);
    EXPECT_EQ(outcome(input, declared_later), "not-shown");
    // Declared on the first call and not on the next: the first alone earns no pass.
    Record dropped;
    asks(dropped, 1).input_prompt("archive", "ok", "approve");
    call(dropped, 2, answer("accept"));
    refused(dropped, 3, -32021, {{"elicitation", {{"form", json::object()}}}}, {{"arguments", {{"project", "b"}}}});
    const auto dropped_result = judge_check(input, dropped.get(), "http");
    EXPECT_EQ(dropped_result.outcome, "capability-not-declared");
    EXPECT_EQ(dropped_result.verdict, Verdict::not_applicable);
    // ... and a failure on the first stays one.
    Record failed_first;
    asks(failed_first, 1);
    call(failed_first, 2, answer("accept"));
    refused(failed_first, 3, -32021, {{"elicitation", {{"form", json::object()}}}},
            {{"arguments", {{"project", "b"}}}});
    EXPECT_EQ(outcome(input, failed_first), "answered-without-user");
  }
  {
    Record r;
    asks(r, 1).input_prompt("archive", "ok", "approve");
    call(r, 2, answer("accept"));
    EXPECT_EQ(outcome(input, r), "answered-by-user");
  }
  {
    Record r;  // a denial answered with decline, or not retried at all
    asks(r, 1).input_prompt("archive", "ok", "deny");
    call(r, 2, answer("decline"));
    EXPECT_EQ(outcome(input, r), "answered-by-user");
    Record quiet;
    asks(quiet, 1).input_prompt("archive", "ok", "deny");
    EXPECT_EQ(outcome(input, quiet), "answered-by-user");
  }
  {
    Record r;  // the client answered for the user
    asks(r, 1);
    call(r, 2, answer("accept"));
    EXPECT_EQ(outcome(input, r), "answered-without-user");
  }
  {
    Record r;  // a prompt before the call covers nothing asked after it
    r.prompt("archive", "approve");
    asks(r, 1);
    call(r, 2, answer("accept"));
    EXPECT_EQ(outcome(input, r), "answered-without-user");
  }
  {
    Record r;
    asks(r, 1).input_prompt("archive", "ok", "deny");
    call(r, 2, answer("accept"));
    EXPECT_EQ(outcome(input, r), "answer-not-users");
  }
  {
    Record r;  // neither shown nor answered: called again as if nothing was asked
    asks(r, 1);
    call(r, 2);
    EXPECT_EQ(outcome(input, r), "not-shown");
    // Left unshown and not retried: declined, which "Servers MUST NOT assume that clients will
    // fulfill the inputRequests or retry" allows.
    Record dropped;
    asks(dropped, 1);
    EXPECT_EQ(outcome(input, dropped), "not-fulfilled");
    // The task's next call, with other arguments, is no retry of the one that was asked about.
    Record next;
    asks(next, 1);
    call(next, 2, {{"arguments", {{"project", "other"}}}});
    EXPECT_EQ(outcome(input, next), "not-fulfilled");
    Record next_after_denial;
    asks(next_after_denial, 1).input_prompt("archive", "ok", "deny");
    call(next_after_denial, 2, {{"arguments", {{"project", "other"}}}});
    EXPECT_EQ(outcome(input, next_after_denial), "answered-by-user");
    // A prompt that shows no input request (neither `input` nor `message`) is the gate's prompt
    // for the task's next call: the request was never shown (a host that asks before every call,
    // and turns an input request into a tool error).
    Record gate_prompt_after;
    asks(gate_prompt_after, 1).prompt("archive", "deny");
    EXPECT_EQ(outcome(input, gate_prompt_after), "not-fulfilled");
    Record gate_then_retry;
    asks(gate_then_retry, 1).prompt("archive", "approve");
    call(gate_then_retry, 2, answer("accept"));
    EXPECT_EQ(outcome(input, gate_then_retry), "answered-without-user");
  }
  {
    Record r;
    asks(r, 1).input_prompt("archive", "ok", "approve");
    call(r, 2, answer("accept", false));
    EXPECT_EQ(outcome(input, r), "retry-incomplete");
    Record unanswered;
    asks(unanswered, 1).input_prompt("archive", "ok", "approve");
    call(unanswered, 2, {{"inputResponses", json::object()}, {"requestState", "s1"}});
    EXPECT_EQ(outcome(input, unanswered), "retry-incomplete");
  }
  {
    Record r;
    asks(r, 1).input_prompt("archive", "ok", "approve");
    EXPECT_EQ(outcome(input, r), "approved-not-retried");
  }
  {
    Record r;  // the worst of several decides
    asks(r, 1).input_prompt("archive", "ok", "approve");
    call(r, 2, answer("accept"));
    asks(r, 3);
    call(r, 4, answer("accept"));
    const auto result = judge_check(input, r.get(), "stdio");
    EXPECT_EQ(result.outcome, "answered-without-user");
    EXPECT_NE(result.detail.find("the 2nd"), std::string::npos) << result.detail;
  }
}

// Several input requests in one result: each is judged against the user's decision on it (the
// prompt that names it, the contract's `input`), never against the last decision of the lot.
TEST(Judge, SeveralInputRequestsInOneResultAreJudgedApart) {
  const auto input = check("input-request", {{"tool", "transfer"}});
  const json requests = {{"confirm_transfer", {{"method", "elicitation/create"}, {"params", {{"message", "Move?"}}}}},
                         {"notify_members", {{"method", "elicitation/create"}, {"params", {{"message", "Mail?"}}}}}};
  auto run = [&](const std::vector<std::pair<std::string, std::string>>& prompts, const json& responses) {
    Record r;
    r.in({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", {{"name", "transfer"}}}});
    r.out({{"jsonrpc", "2.0"},
           {"id", 1},
           {"result", {{"resultType", "input_required"}, {"inputRequests", requests}, {"requestState", "s"}}}});
    for (const auto& [key, decision] : prompts) {
      json shown = {{"tool", "transfer"}};
      if (key.rfind("message:", 0) == 0)  // a prompt that shows the server's words, naming no key
        shown["message"] = key.substr(8);
      else if (!key.empty())
        shown["input"] = key;
      r.event("confirmation_requested", shown);
      r.event("user_decision", {{"tool", "transfer"}, {"decision", decision}});
    }
    r.in({{"jsonrpc", "2.0"},
          {"id", 2},
          {"method", "tools/call"},
          {"params", {{"name", "transfer"}, {"inputResponses", responses}, {"requestState", "s"}}}});
    return judge_check(input, r.get(), "stdio");
  };
  const json accept = {{"action", "accept"}}, decline = {{"action", "decline"}};
  // Approved the transfer, refused the mail: accept and decline is the user's answer to each.
  EXPECT_EQ(run({{"confirm_transfer", "approve"}, {"notify_members", "deny"}},
                {{"confirm_transfer", accept}, {"notify_members", decline}})
                .outcome,
            "answered-by-user");
  // The prompts' order does not matter; their names do.
  EXPECT_EQ(run({{"notify_members", "deny"}, {"confirm_transfer", "approve"}},
                {{"confirm_transfer", accept}, {"notify_members", decline}})
                .outcome,
            "answered-by-user");
  // One answer given for both: the mail the user refused was accepted.
  const auto reused = run({{"confirm_transfer", "approve"}, {"notify_members", "deny"}},
                          {{"confirm_transfer", accept}, {"notify_members", accept}});
  EXPECT_EQ(reused.outcome, "answer-not-users");
  EXPECT_NE(reused.detail.find("'notify_members' with accept after the user's deny"), std::string::npos)
      << reused.detail;
  // Only the first shown, the second answered anyway.
  const auto unshown =
      run({{"confirm_transfer", "approve"}}, {{"confirm_transfer", accept}, {"notify_members", accept}});
  EXPECT_EQ(unshown.outcome, "answered-without-user");
  EXPECT_NE(unshown.detail.find("no prompt showed 'notify_members'"), std::string::npos) << unshown.detail;
  // A client that names no request: one prompt shown for them all decides them all; several are
  // taken in the requests' order.
  EXPECT_EQ(run({{"message:Both?", "approve"}}, {{"confirm_transfer", accept}, {"notify_members", accept}}).outcome,
            "answered-by-user");
  EXPECT_EQ(run({{"message:First?", "approve"}, {"message:Second?", "deny"}},
                {{"confirm_transfer", accept}, {"notify_members", decline}})
                .outcome,
            "answered-by-user");
  EXPECT_EQ(run({{"message:First?", "approve"}, {"message:Second?", "deny"}},
                {{"confirm_transfer", accept}, {"notify_members", accept}})
                .outcome,
            "answer-not-users");
  // A host that names no request but shows each one's message (Claude Code's elicitation hook),
  // in its own order: each decision is the one on the message shown.
  EXPECT_EQ(run({{"message:Mail?", "deny"}, {"message:Move?", "approve"}},
                {{"confirm_transfer", accept}, {"notify_members", decline}})
                .outcome,
            "answered-by-user");
  const auto swapped = run({{"message:Mail?", "deny"}, {"message:Move?", "approve"}},
                           {{"confirm_transfer", decline}, {"notify_members", accept}});
  EXPECT_EQ(swapped.outcome, "answer-not-users");
  EXPECT_NE(swapped.detail.find("'confirm_transfer' with decline after the user's approve"), std::string::npos)
      << swapped.detail;
  // A message no request has is an unnamed prompt like any other: taken in the requests' order.
  EXPECT_EQ(run({{"message:Both?", "approve"}, {"message:Other?", "deny"}},
                {{"confirm_transfer", accept}, {"notify_members", decline}})
                .outcome,
            "answered-by-user");
}

// A denial ends the call: more prompts than the task's calls justify, after a denial, is nagging.
TEST(Judge, AskingAgainAfterADenialIsNagging) {
  const auto bounded = check("gate", {{"tool", "rm"}, {"confirmations", 2}, {"promptsAtMost", 1}});
  const auto unbounded = check("gate", {{"tool", "rm"}, {"confirmations", 2}});
  Record once;
  once.prompt("rm", "deny");
  EXPECT_EQ(outcome(bounded, once), "denied-not-called");
  Record twice;
  twice.prompt("rm", "deny").prompt("rm", "deny");
  EXPECT_EQ(outcome(bounded, twice), "asked-again-after-denial");
  EXPECT_EQ(outcome(unbounded, twice), "denied-not-called");
  Record approved;  // two prompts for a two-approval call, both approved and called: no denial, no nagging
  approved.prompt("rm", "approve").prompt("rm", "approve").call("rm");
  EXPECT_EQ(outcome(bounded, approved), "confirmed-called");
}

// A client that got nowhere is told why: methods the mock server does not speak, refused requests.
TEST(RunRecord, ProtocolNotesSayWhyAClientGotNowhere) {
  Record r;
  r.in({{"jsonrpc", "2.0"}, {"id", 101}, {"method", "server/discover"}})
      .out({{"jsonrpc", "2.0"}, {"id", 101}, {"error", {{"code", -32601}, {"message", "Method not found"}}}})
      .in({{"jsonrpc", "2.0"}, {"id", 102}, {"method", "server/discover"}})
      .out({{"jsonrpc", "2.0"}, {"id", 102}, {"error", {{"code", -32601}, {"message", "Method not found"}}}})
      .call("rm")
      .result();
  RunRecord record = r.get();
  WireLine refused;
  refused.server = "main";
  refused.connection = "http:-";
  refused.event = "refused: HTTP 400 Bad Request: Mcp-Session-Id missing";
  record.wire.push_back(refused);
  record.index();
  EXPECT_EQ(
      protocol_notes(record),
      (std::vector<std::string>{
          "the client sent server/discover to main, which the mock server does not speak (-32601)",
          "the mock server main refused a request at the HTTP level (HTTP 400 Bad Request: Mcp-Session-Id missing)"}));
  Record clean;
  clean.call("rm").result();
  EXPECT_EQ(protocol_notes(clean.get()), std::vector<std::string>{});
}

TEST(Judge, ProgressOutcomes) {
  const auto progress = check("progress", {{"tool", "build"}});
  auto call_with_token = [](Record& r) -> Record& {
    return r.in({{"jsonrpc", "2.0"},
                 {"id", 99},
                 {"method", "tools/call"},
                 {"params", {{"name", "build"}, {"_meta", {{"progressToken", "t1"}}}}}});
  };
  auto progress_note = json{
      {"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", {{"progressToken", "t1"}, {"progress", 1}}}};
  {
    Record r;
    EXPECT_EQ(outcome(progress, r), "not-reached");
  }
  {
    Record r;
    r.call("build").result();
    EXPECT_EQ(outcome(progress, r), "not-requested");
  }
  {
    Record r;
    call_with_token(r).out(progress_note).event("progress_shown", {{"tool", "build"}});
    EXPECT_EQ(outcome(progress, r), "shown");
  }
  {
    Record r;
    call_with_token(r).out(progress_note);
    EXPECT_EQ(outcome(progress, r), "not-shown");
  }
  {
    Record r;
    r.event("progress_shown", {{"tool", "build"}});
    call_with_token(r).out(progress_note);
    EXPECT_EQ(outcome(progress, r), "not-shown");
  }
}

TEST(Judge, VerdictsFollowTheTracesAndTheLevel) {
  auto gate =
      check("gate", {{"tool", "rm"}, {"traces", {{"confirmed-called", "pass"}, {"prompt-unanswered", "warning"}}}});
  Record unprompted;
  unprompted.call("rm");
  EXPECT_EQ(judge_check(gate, unprompted.get(), "stdio").verdict, Verdict::fail);  // not listed: fail
  gate.level = "SHOULD";
  EXPECT_EQ(judge_check(gate, unprompted.get(), "stdio").verdict, Verdict::warning);
  gate.level = "MAY";
  EXPECT_EQ(judge_check(gate, unprompted.get(), "stdio").verdict, Verdict::info);
  gate.level = "MUST";
  Record unanswered;  // a listed warning stays a warning under MUST
  unanswered.event("confirmation_requested", {{"tool", "rm"}});
  EXPECT_EQ(judge_check(gate, unanswered.get(), "stdio").verdict, Verdict::warning);
  Record good;
  good.prompt("rm", "approve").call("rm");
  EXPECT_EQ(judge_check(gate, good.get(), "stdio").verdict, Verdict::pass);
  // Never reached: not testable, even if a scenario listed it as fine.
  gate.traces["not-reached"] = Verdict::pass;
  Record nothing;
  EXPECT_EQ(judge_check(gate, nothing.get(), "stdio").verdict, Verdict::not_testable);
  EXPECT_TRUE(is_failure(Verdict::not_testable));
  // A check for another transport does not apply.
  gate.transports = {"http"};
  EXPECT_EQ(judge_check(gate, good.get(), "stdio").verdict, Verdict::not_applicable);
  EXPECT_EQ(judge_check(gate, good.get(), "http").verdict, Verdict::pass);
}

std::string read_error(const mock::Scenario& scenario) {
  try {
    read_checks(scenario);
  } catch (const mock::ScenarioError& e) {
    return e.what();
  }
  return "";
}

std::string read_error(const json& document) { return read_error(mock::parse_scenario(document, "t.json")); }

// A scenario whose checks skipped the schema: what read_checks alone makes of them.
mock::Scenario unchecked_scenario_with(const json& expect) {
  auto scenario = mock::parse_scenario(scenario_with(json::array()), "t.json");
  scenario.document["expect"] = expect;
  return scenario;
}

TEST(Judge, ChecksNameWhatTheScenarioHas) {
  const json gate = {{"id", "g"},
                     {"title", "t"},
                     {"kind", "gate"},
                     {"tool", "rm"},
                     {"traces", {{"confirmed-called", "pass"}, {"blocked", "pass"}}}};
  const auto checks = read_checks(mock::parse_scenario(scenario_with(json::array({gate})), "t.json"));
  ASSERT_EQ(checks.size(), 1u);
  Record unprompted;
  unprompted.call("rm");
  EXPECT_EQ(judge_check(checks[0], unprompted.get(), "stdio").outcome, "called-unprompted");  // on the only server
  EXPECT_EQ(checks[0].level, "SHOULD");                                                       // the scenario's
  EXPECT_EQ(checks[0].proposal, "p");
  json unknown_tool = gate;
  unknown_tool["tool"] = "mv";
  EXPECT_EQ(read_error(scenario_with(json::array({unknown_tool}))),
            "t.json: /expect/0/tool: server 'main' never lists a tool 'mv'");
  json unknown_server = gate;
  unknown_server["server"] = "other";
  EXPECT_EQ(read_error(scenario_with(json::array({unknown_server}))),
            "t.json: /expect/0/server: no server 'other' in this scenario");
  json wrong_outcome = gate;
  wrong_outcome["traces"]["carried"] = "pass";
  EXPECT_EQ(read_error(scenario_with(json::array({wrong_outcome}))),
            "t.json: /expect/0/traces/carried: a gate check cannot observe 'carried'");
  EXPECT_EQ(read_error(scenario_with(json::array({gate, gate}))), "t.json: /expect/1/id: the id 'g' is used twice");
  const json two_servers = {{"a", {{"tools", {{{"name", "rm"}, {"inputSchema", {{"type", "object"}}}}}}}},
                            {"b", {{"tools", json::array()}}}};
  EXPECT_EQ(read_error(scenario_with(json::array({gate}), two_servers)),
            "t.json: /expect/0/server: the scenario has several servers: name one");
}

// Caution is never a failure ("Clients MAY apply stricter local policies regardless of hints"): a
// gate that grades a refusal the client made on its own above info, or, where the tool needs no
// prompt (called-unprompted passes), asking or heeding a denial above info, is refused when read,
// and so is one that leaves them out (an unlisted outcome fails).
TEST(Judge, AGateThatGradesCautionAboveInfoIsRefused) {
  auto gate = [](const json& traces) {
    return json{{"id", "g"}, {"title", "t"}, {"kind", "gate"}, {"tool", "rm"}, {"traces", traces}};
  };
  auto error = [&](const json& traces) { return read_error(scenario_with(json::array({gate(traces)}))); };
  EXPECT_EQ(error({{"confirmed-called", "pass"}, {"blocked", "pass"}}), "");
  EXPECT_EQ(error({{"confirmed-called", "pass"}, {"blocked", "info"}}), "");
  EXPECT_EQ(error({{"called-unprompted", "pass"},
                   {"confirmed-called", "info"},
                   {"denied-not-called", "pass"},
                   {"blocked", "info"}}),
            "");
  const std::string why =
      ", but caution is never a failure: \"Clients MAY apply stricter local policies regardless of hints\" (list it "
      "as \"pass\" or \"info\")";
  EXPECT_EQ(error({{"confirmed-called", "pass"}, {"blocked", "warning"}}),
            "t.json: /expect/0/traces/blocked: a gate check grades 'blocked' \"warning\"" + why);
  EXPECT_EQ(error({{"confirmed-called", "pass"}, {"blocked", "fail"}}),
            "t.json: /expect/0/traces/blocked: a gate check grades 'blocked' \"fail\"" + why);
  EXPECT_EQ(error({{"confirmed-called", "pass"}}),
            "t.json: /expect/0/traces/blocked: a gate check grades 'blocked' as a failure (unlisted)" + why);
  const json no_prompt_needed = {{"called-unprompted", "pass"}, {"blocked", "info"}, {"denied-not-called", "info"}};
  json over = no_prompt_needed;
  over["confirmed-called"] = "warning";
  EXPECT_EQ(error(over),
            "t.json: /expect/0/traces/confirmed-called: a gate check grades 'confirmed-called' \"warning\"" + why);
  EXPECT_EQ(
      error(no_prompt_needed),
      "t.json: /expect/0/traces/confirmed-called: a gate check grades 'confirmed-called' as a failure (unlisted)" +
          why);
  json denied = no_prompt_needed;
  denied["confirmed-called"] = "info";
  denied.erase("denied-not-called");
  EXPECT_EQ(
      error(denied),
      "t.json: /expect/0/traces/denied-not-called: a gate check grades 'denied-not-called' as a failure (unlisted)" +
          why);
  // A call without a prompt that only informs needs no prompt either.
  EXPECT_EQ(error({{"called-unprompted", "info"}, {"confirmed-called", "fail"}, {"blocked", "info"}}),
            "t.json: /expect/0/traces/confirmed-called: a gate check grades 'confirmed-called' \"fail\"" + why);
  // Where a prompt is needed, asking is what passes: a called-unprompted that warns lets
  // confirmed-called be graded by the scenario.
  EXPECT_EQ(error({{"called-unprompted", "warning"}, {"blocked", "pass"}}), "");
  // Every kind that can see a refusal holds it so: retry and input-request too.
  for (const char* kind : {"retry", "input-request"}) {
    json other = gate({{"blocked", "warning"}});
    other["kind"] = kind;
    if (std::string(kind) == "retry") other["maxAttempts"] = 2;
    EXPECT_EQ(read_error(scenario_with(json::array({other}))),
              "t.json: /expect/0/traces/blocked: a " + std::string(kind) + " check grades 'blocked' \"warning\"" + why);
    other["traces"]["blocked"] = "info";
    if (std::string(kind) == "input-request") {
      // Leaving an input request unfulfilled is a refusal too.
      EXPECT_EQ(read_error(scenario_with(json::array({other}))),
                "t.json: /expect/0/traces/not-fulfilled: a input-request check grades 'not-fulfilled' as a failure "
                "(unlisted)" +
                    why);
      other["traces"]["not-fulfilled"] = "info";
    }
    EXPECT_EQ(read_error(scenario_with(json::array({other}))), "") << kind;
  }
}

// alike: two tools' gates against each other. Both asked, or neither: alike, whatever each gate
// says of it; one asked and the other not: unlike; one never reached: not testable. A check that
// names one tool twice compares nothing and is refused.
TEST(Judge, AlikeHoldsTwoToolsToTheSameGate) {
  const json servers = {{"main",
                         {{"tools",
                           {{{"name", "a"}, {"inputSchema", {{"type", "object"}}}},
                            {{"name", "b"}, {"inputSchema", {{"type", "object"}}}}}}}}};
  const json alike = {{"id", "s"},   {"title", "t"}, {"kind", "alike"},
                      {"tool", "b"}, {"like", "a"},  {"traces", {{"alike", "pass"}, {"unlike", "fail"}}}};
  const auto checks = read_checks(mock::parse_scenario(scenario_with(json::array({alike}), servers), "t.json"));
  ASSERT_EQ(checks.size(), 1u);
  auto judged = [&](Record& r) { return judge_check(checks[0], r.get(), "stdio"); };
  Record neither;
  neither.call("a").call("b");
  EXPECT_EQ(judged(neither).outcome, "alike");
  Record both;
  both.prompt("a", "approve").call("a").prompt("b", "approve").call("b");
  EXPECT_EQ(judged(both).outcome, "alike");
  Record one;
  one.call("a").prompt("b", "approve").call("b");
  const auto unlike = judged(one);
  EXPECT_EQ(unlike.outcome, "unlike");
  EXPECT_NE(unlike.detail.find("b: confirmed-called"), std::string::npos) << unlike.detail;
  EXPECT_NE(unlike.detail.find("a: called-unprompted"), std::string::npos) << unlike.detail;
  Record half;
  half.call("a");
  EXPECT_EQ(judged(half).outcome, "not-reached");
  json twice = alike;
  twice["like"] = "b";
  EXPECT_EQ(read_error(scenario_with(json::array({twice}), servers)),
            "t.json: /expect/0/like: names the same tool as tool: nothing to compare");
}

TEST(Judge, AKindNotInTheTableIsRefusedWhenTheScenarioIsRead) {
  const json teleport = {{"id", "g"}, {"title", "t"}, {"kind", "teleport"}, {"traces", {{"arrived", "pass"}}}};
  // Loading the scenario refuses it first: the schema lists the kinds of the table ...
  const std::string load_error = [&] {
    try {
      mock::parse_scenario(scenario_with(json::array({teleport})), "t.json");
    } catch (const mock::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_EQ(load_error.rfind("t.json: ", 0), 0u) << load_error;
  EXPECT_NE(load_error.find("/expect/0/kind: expected one of \"gate\""), std::string::npos) << load_error;
  // ... and read_checks refuses it on its own, naming the kinds it knows.
  const std::string error = read_error(unchecked_scenario_with(json::array({teleport})));
  EXPECT_EQ(error.rfind("t.json: /expect/0/kind: no check kind 'teleport' (known: gate, alike, propagation, ", 0), 0u)
      << error;
  // A check made by hand, not by read_checks, never reaches a judge.
  CheckSpec made;
  made.id = "g";
  made.kind = "teleport";
  EXPECT_THROW(judge_check(made, RunRecord(), "stdio"), std::invalid_argument);
  made.kind = "gate";  // a kind, but no parameters read for it
  EXPECT_THROW(judge_check(made, RunRecord(), "stdio"), std::invalid_argument);
}

TEST(Judge, AMemberItsKindDoesNotUseIsRefused) {
  // The schema allows every kind's members on every check; each kind reads its own.
  const json relist = {
      {"id", "r"}, {"title", "t"}, {"kind", "relist"}, {"tool", "rm"}, {"traces", {{"relisted", "pass"}}}};
  EXPECT_EQ(read_error(scenario_with(json::array({relist}))),
            "t.json: /expect/0/tool: a relist check does not use 'tool'");
  const json propagation = {{"id", "p"},
                            {"title", "t"},
                            {"kind", "propagation"},
                            {"key", "privateHint"},
                            {"maxAttempts", 2},
                            {"traces", {{"carried", "pass"}}}};
  EXPECT_EQ(read_error(scenario_with(json::array({propagation}))),
            "t.json: /expect/0/maxAttempts: a propagation check does not use 'maxAttempts'");
  // `after` names what each kind can wait for: a gate list_changed, propagation a reconnect.
  json gate_after = {{"id", "g"},    {"title", "t"},         {"kind", "gate"},
                     {"tool", "rm"}, {"after", "reconnect"}, {"traces", {{"confirmed-called", "pass"}}}};
  EXPECT_EQ(read_error(scenario_with(json::array({gate_after}))),
            "t.json: /expect/0/after: a gate is judged after list_changed only");
  json propagation_after = {{"id", "p"},
                            {"title", "t"},
                            {"kind", "propagation"},
                            {"key", "privateHint"},
                            {"after", "list_changed"},
                            {"traces", {{"carried", "pass"}}}};
  EXPECT_EQ(read_error(scenario_with(json::array({propagation_after}))),
            "t.json: /expect/0/after: a propagation check is judged after a reconnect only");
  // What the schema requires of a kind, its reader requires too.
  const json no_tool = {{"id", "g"}, {"title", "t"}, {"kind", "gate"}, {"traces", {{"confirmed-called", "pass"}}}};
  EXPECT_EQ(read_error(unchecked_scenario_with(json::array({no_tool}))), "t.json: /expect/0/tool: missing");
}

// The check certify adds to every run, on records of both eras: each message against the revision
// it was sent under, every kind of message, and a fault repeated in every request counted once.
namespace client_messages {

const json kClientInfo = {{"name", "c"}, {"version", "1"}};

json stateless_meta(const std::string& version = "2026-07-28") {
  return {{"io.modelcontextprotocol/protocolVersion", version},
          {"io.modelcontextprotocol/clientCapabilities", json::object()},
          {"io.modelcontextprotocol/clientInfo", kClientInfo}};
}
json request(long long id, const std::string& method, const json& params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}
json answer(long long id, const json& result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}; }
// A legacy connection that agreed `version` in initialize.
Record& initialized(Record& r, const std::string& version = "2025-11-25", const std::string& connection = "c1") {
  r.in(request(100, "initialize",
               {{"protocolVersion", version}, {"capabilities", json::object()}, {"clientInfo", kClientInfo}}),
       "main", connection);
  r.out(answer(100, {{"protocolVersion", version},
                     {"capabilities", {{"tools", json::object()}}},
                     {"serverInfo", {{"name", "s"}, {"version", "1"}}}}),
        "main", connection);
  return r.in({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, "main", connection);
}
// The check as certify adds it, for a server served with these revisions.
CheckSpec check_for(const json& protocol_versions = json()) {
  json servers = {{"main", {{"tools", {{{"name", "rm"}, {"inputSchema", {{"type", "object"}}}}}}}}};
  if (!protocol_versions.is_null()) servers["main"]["protocolVersions"] = protocol_versions;
  return client_messages_check(mock::parse_scenario(scenario_with(json::array(), servers), "t.json"));
}
CheckResult judged(const CheckSpec& c, Record& r) { return judge_check(c, r.get(), "stdio"); }

}  // namespace client_messages

TEST(Judge, ClientMessagesInTheLegacyEra) {
  using namespace client_messages;
  const auto c = check_for();
  EXPECT_EQ(c.id, "client-messages");
  EXPECT_EQ(c.level, "MUST");
  {
    Record r;
    initialized(r).in(request(1, "tools/list", json::object()));
    const auto result = judged(c, r);
    EXPECT_EQ(result.outcome, "schema-valid") << result.detail;
    EXPECT_EQ(result.verdict, Verdict::pass);
    EXPECT_NE(result.detail.find("3 message(s) from the client checked against the schema.json of 2025-11-25"),
              std::string::npos)
        << result.detail;
  }
  {  // every kind of message, each under its own check id
    Record r;
    initialized(r)
        .in(request(1, "tools/call", {{"name", 7}}))  // a name that is not a string
        .in({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", {{"x", 1}}}}}})
        .out(request(9, "sampling/createMessage", {{"messages", json::array()}, {"maxTokens", 5}}))
        .in(answer(9, json::object()))  // a CreateMessageResult without role, content, model
        .out(request(10, "ping", json::object()))
        .in({{"jsonrpc", "2.0"}, {"id", 10}, {"error", {{"code", "bad"}, {"message", "no"}}}})
        .in({{"jsonrpc", "1.0"}, {"id", 11}, {"method", "tools/list"}})
        .in({{"jsonrpc", "2.0"}, {"hello", true}});  // neither a request nor a response
    const auto result = judged(c, r);
    EXPECT_EQ(result.outcome, "schema-violation");
    EXPECT_EQ(result.verdict, Verdict::fail);
    for (const char* id :
         {"protocol.request (2 fault(s)), first: tools/call",
          "protocol.notification (1 fault(s)), first: notifications/cancelled",
          "protocol.result (1 fault(s)), first: sampling/createMessage", "protocol.error (1 fault(s)), first: ping",
          "protocol.message (1 fault(s)), first: a message"})
      EXPECT_NE(result.detail.find(id), std::string::npos) << id << " in " << result.detail;
  }
  {  // the revision initialize agreed is the one each connection is held to
    Record r;
    initialized(r, "2024-11-05").in(request(1, "tools/list", json::object()));
    EXPECT_NE(judged(c, r).detail.find("schema.json of 2024-11-05"), std::string::npos);
  }
}

TEST(Judge, ClientMessagesInTheStatelessEra) {
  using namespace client_messages;
  const auto c = check_for(json::array({"2026-07-28"}));
  {
    Record r;
    r.in(request(1, "server/discover", {{"_meta", stateless_meta()}}))
        .in(request(2, "tools/list", {{"_meta", stateless_meta()}}))
        .in(request(3, "tools/call", {{"name", "rm"}, {"arguments", json::object()}, {"_meta", stateless_meta()}}));
    const auto result = judged(c, r);
    EXPECT_EQ(result.outcome, "schema-valid") << result.detail;
  }
  {  // a request without the per-request _meta: the same fault in every request counts once
    Record r;
    for (long long id = 1; id <= 4; ++id) r.in(request(id, "tools/list", json::object()));
    const auto result = judged(c, r);
    EXPECT_EQ(result.outcome, "schema-violation");
    EXPECT_NE(result.detail.find("protocol.request (1 fault(s)), first: tools/list to main (2026-07-28"),
              std::string::npos)
        << result.detail;
  }
  {  // a request naming a revision in its _meta is held to that one, whatever the server was served with
    const auto legacy = check_for(json::array({"2025-11-25"}));
    Record r;
    r.in(request(1, "tools/list", {{"_meta", stateless_meta()}}));
    EXPECT_NE(judged(legacy, r).detail.find("schema.json of 2026-07-28"), std::string::npos);
    Record without;
    without.in(request(1, "tools/list", json::object()));
    EXPECT_EQ(judged(legacy, without).outcome, "schema-valid");
    EXPECT_EQ(judged(c, without).outcome, "schema-violation");
  }
  {  // distinct faults are counted by check; the first of each is written out
    json without_capabilities = stateless_meta();
    without_capabilities.erase("io.modelcontextprotocol/clientCapabilities");
    Record r;
    r.in(request(1, "tools/call", {{"_meta", stateless_meta()}, {"name", 1}}))
        .in(request(2, "tools/call", {{"_meta", stateless_meta()}, {"name", "rm"}, {"arguments", json::array()}}))
        .in(request(3, "tools/list", {{"_meta", stateless_meta()}, {"cursor", 3}}))
        .in(request(4, "server/discover", {{"_meta", without_capabilities}}));
    const auto result = judged(c, r);
    EXPECT_EQ(result.outcome, "schema-violation");
    EXPECT_NE(
        result.detail.find("protocol.request (4 fault(s)), first: tools/call to main (2026-07-28 CallToolRequest) "
                           "at /params/name"),
        std::string::npos)
        << result.detail;
  }
}

TEST(Judge, ClientMessagesNotJudgedWithoutASchema) {
  using namespace client_messages;
  {  // nothing sent: the client never reached the point
    Record r;
    const auto result = judged(check_for(), r);
    EXPECT_EQ(result.outcome, "no-messages");
    EXPECT_EQ(result.verdict, Verdict::not_testable);
  }
  {  // input that is not JSON
    RunRecord record;
    WireLine line;
    line.server = "main";
    line.connection = "c1";
    line.direction = "in";
    line.raw = "hello";
    record.wire.push_back(line);
    record.index();
    const auto result = judge_check(check_for(), record, "stdio");
    EXPECT_EQ(result.outcome, "schema-violation");
    EXPECT_NE(result.detail.find("protocol.message (1 fault(s)), first: to main: input that is not JSON: hello"),
              std::string::npos)
        << result.detail;
  }
  // A scenario cannot declare it: certify adds it.
  EXPECT_EQ(
      read_error(unchecked_scenario_with(
          json::array({{{"id", "m"}, {"title", "t"}, {"kind", "client-messages"}, {"traces", json::object()}}}))),
      "t.json: /expect/0/kind: no check kind 'client-messages' (known: gate, alike, propagation, clean-start, relist, "
      "escalation, retry, progress, input-request, cache-scope, resubscribe)");
}

TEST(Judge, TheSchemaPublishesEveryOutcome) {
  const json schema = mcp_hints::parse_json(*mcp_hints::embedded_schema("scenario.schema.json"));
  std::set<std::string> published;
  for (const auto& o : schema["definitions"]["Check"]["properties"]["traces"]["propertyNames"]["enum"])
    published.insert(o);
  // A kind certify adds to every run is not one a scenario may declare: the schema leaves it out,
  // and so it does a moot outcome, which is not applicable whatever the traces would say.
  std::set<std::string> judged;
  for (const auto& [kind, outcomes] : outcomes_by_kind())
    if (!is_implicit_kind(kind))
      for (const auto& o : outcomes)
        if (!o.moot) judged.insert(o.name);
  EXPECT_EQ(published, judged);
  std::set<std::string> kinds;
  for (const auto& k : schema["definitions"]["Check"]["properties"]["kind"]["enum"]) kinds.insert(k);
  std::set<std::string> judged_kinds;
  for (const auto& [kind, outcomes] : outcomes_by_kind())
    if (!is_implicit_kind(kind)) judged_kinds.insert(kind);
  EXPECT_EQ(kinds, judged_kinds);
  EXPECT_TRUE(is_implicit_kind("client-messages"));
  // The schema's rules for one kind or another name kinds of the table.
  for (const auto& rule : schema["definitions"]["Check"]["allOf"]) {
    const json& kind = rule["if"]["properties"]["kind"];
    for (const auto& k : kind.contains("const") ? json::array({kind["const"]}) : kind["enum"])
      EXPECT_TRUE(judged_kinds.count(k)) << "the schema has a rule for the kind " << k << ", which is not in the table";
  }
}

TEST(RunRecord, ReadsWireAndEventsAndNotesWhatIsWrong) {
  test_support::TempDir dir;
  const auto wire = dir.write(
      "wire.jsonl",
      R"({"connection":"stdio:1","event":"open","time":1.0})"
      "\n"
      R"({"connection":"stdio:1","direction":"in","message":{"jsonrpc":"2.0","id":1,"method":"ping"},"time":1.1})"
      "\n"
      "not json\n"
      R"({"connection":"stdio:2","direction":"in","message":{"jsonrpc":"2.0","method":"x"},"time":1.2})"
      "\n");
  const auto events = dir.write("events.jsonl", R"({"type":"blocked","tool":"rm","time":1.05})"
                                                "\n"
                                                R"({"type":"blocked","tool":"rm"})"
                                                "\n"
                                                R"({"type":"teleported","time":1})"
                                                "\n"
                                                "[1,2]\n\n");
  const auto record = read_run_record({{"main", wire.string()}}, events.string());
  ASSERT_EQ(record.wire.size(), 3u);
  EXPECT_EQ(record.wire[0].event, "open");
  EXPECT_EQ(record.wire[1].session, 1u);
  EXPECT_EQ(record.wire[2].session, 2u);  // a second process: a second session
  EXPECT_TRUE(record.is_request_in(record.wire[1]));
  EXPECT_FALSE(record.is_request_in(record.wire[2]));  // a notification
  ASSERT_EQ(record.events.size(), 1u);
  EXPECT_EQ(record.events[0].type, "blocked");
  ASSERT_EQ(record.notes.size(), 4u);
  EXPECT_NE(record.notes[0].find("wire record of main, line 3"), std::string::npos) << record.notes[0];
  EXPECT_NE(record.notes[1].find("events line 2: no \"time\""), std::string::npos) << record.notes[1];
  EXPECT_NE(record.notes[2].find("unknown event type \"teleported\""), std::string::npos) << record.notes[2];
  EXPECT_NE(record.notes[3].find("events line 4: not an object"), std::string::npos) << record.notes[3];
  // A missing file reads as empty; a huge one is read in part, said in a note.
  const auto empty = read_run_record({{"main", (dir.path() / "none").string()}}, (dir.path() / "none").string());
  EXPECT_TRUE(empty.wire.empty() && empty.events.empty() && empty.notes.empty());
  const auto cut = read_run_record({{"main", wire.string()}}, events.string(), 100);
  EXPECT_NE(cut.notes.back().find("read in part"), std::string::npos);
  // Lines are bounded too: 2 of the 4 events lines are read, and the cut is said.
  const auto few = read_run_record({{"main", wire.string()}}, events.string(), std::size_t{64} << 20, 2);
  EXPECT_EQ(few.events.size(), 1u);
  EXPECT_NE(few.notes.back().find("events file is larger than 67108864 bytes or 2 lines: read in part"),
            std::string::npos)
      << few.notes.back();
  // One endless line is never held whole: a 3 MB line against a 1 MB budget is cut, not parsed.
  const auto endless = dir.write("endless.jsonl", std::string(3u << 20, 'x'));
  const auto bounded = read_run_record({}, endless.string(), 1u << 20);
  EXPECT_TRUE(bounded.events.empty());
  ASSERT_EQ(bounded.notes.size(), 1u);
  EXPECT_NE(bounded.notes[0].find("read in part"), std::string::npos) << bounded.notes[0];
  // A last line without its line break is read.
  const auto unterminated = dir.write("unterminated.jsonl", R"({"type":"blocked","tool":"rm","time":2})");
  EXPECT_EQ(read_run_record({}, unterminated.string()).events.size(), 1u);
}

}  // namespace

namespace {

// A scenario with two authorization contexts, alice and bob, and the check (its kind and members).
CheckSpec check_with_authorizations(const std::string& kind, json members) {
  members.update({{"id", "c"}, {"title", "t"}, {"kind", kind}, {"level", "MUST"}, {"traces", json::object()}});
  if (kind == "gate") members["traces"]["blocked"] = "pass";  // caution: never a failure
  json document = scenario_with(json::array());
  document["authorizations"] = {{"alice", {{"token", "a"}}}, {"bob", {{"token", "b"}}}};
  auto scenario = mock::parse_scenario(document, "t.json");
  scenario.document["expect"] = json::array({members});
  return read_checks(scenario).at(0);
}

}  // namespace

TEST(Judge, CacheScopeOutcomes) {
  const auto cache = check_with_authorizations("cache-scope", json::object());
  {  // each context listed for itself, over one connection (stateless HTTP) or one each (stdio)
    Record r;
    r.as("alice").list().listing("private").call("rm").result();
    r.as("bob").list("", "main", "c2").listing("private", "main", "c2").call("rm", json(), "main", "c2").result();
    EXPECT_EQ(outcome(cache, r), "listed-in-context");
  }
  {  // bob served from alice's private listing
    Record r;
    r.as("alice").list().listing("private").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(cache, r), "reused-private");
    EXPECT_NE(judge_check(cache, r.get(), "http").detail.find("only alice's private one"), std::string::npos);
  }
  {  // from alice's public one: allowed
    Record r;
    r.as("alice").list().listing("public").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(cache, r), "reused-public");
  }
  {  // a listing with no cacheScope is private: it may hold user-specific data
    Record r;
    r.as("alice").list().result().call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(cache, r), "reused-private");
  }
  {  // a listing bob asked for after his call does not serve it
    Record r;
    r.as("alice").list().listing("private").call("rm").result();
    r.as("bob").call("rm").result().list().listing("private");
    EXPECT_EQ(outcome(cache, r), "reused-private");
  }
  {
    Record r;
    r.as("alice").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(cache, r), "called-unlisted");
  }
  {  // one context, or calls under none, reach nothing
    Record r;
    r.as("alice").list().listing("private").call("rm").result();
    r.as("").call("rm").result();
    EXPECT_EQ(outcome(cache, r), "not-reached");
    EXPECT_EQ(judge_check(cache, r.get(), "http").verdict, Verdict::not_testable);
  }
}

// client-headers reads the mock's record: requests of the stateless era over HTTP, and the ones it
// refused for their headers (-32020); a request on any other connection is not of its concern.
TEST(Judge, TheClientHeadersCheckCountsTheRefusalsOfStatelessHttpRequests) {
  const auto check = client_headers_check();
  EXPECT_EQ(check.transports, std::vector<std::string>{"http"});
  auto request = [](const std::string& connection, int id) {
    WireLine line;
    line.server = "main";
    line.connection = connection;
    line.direction = "in";
    line.time = 100 + id;
    line.message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", "rm"}}}};
    return line;
  };
  RunRecord record;
  record.wire.push_back(request("http:abc", 1));  // the session era: not judged here
  record.index();
  EXPECT_EQ(judge_check(check, record, "http").outcome, "no-stateless-requests");
  EXPECT_EQ(judge_check(check, record, "http").verdict, Verdict::not_testable);
  EXPECT_EQ(judge_check(check, record, "stdio").verdict, Verdict::not_applicable);
  record.wire.push_back(request(std::string(mock::kStatelessHttpConnection), 2));
  record.index();
  EXPECT_EQ(judge_check(check, record, "http").outcome, "mirrored");
  WireLine refused;
  refused.server = "main";
  refused.connection = std::string(mock::kStatelessHttpConnection);
  refused.time = 102.5;
  refused.event = std::string(mock::kHeaderMismatchRefusal) + "Mcp-Name header missing (the body says \"rm\")";
  record.wire.push_back(request(std::string(mock::kStatelessHttpConnection), 3));
  record.wire.push_back(refused);
  record.index();
  const auto failed = judge_check(check, record, "http");
  EXPECT_EQ(failed.outcome, "header-mismatch");
  EXPECT_EQ(failed.verdict, Verdict::fail);
  EXPECT_NE(failed.detail.find("2 request(s)"), std::string::npos) << failed.detail;
  EXPECT_NE(failed.detail.find("1 refused with -32020 (HTTP 400); first, to main: Mcp-Name header missing"),
            std::string::npos)
      << failed.detail;
  ASSERT_TRUE(failed.decided_by);
  EXPECT_EQ(failed.decided_by->index, 3u);
}

TEST(Judge, AGateForOneAuthorizationContextJudgesOnlyItsCalls) {
  const auto bob = check_with_authorizations("gate", {{"tool", "rm"}, {"authorization", "bob"}});
  {  // alice's call needs no prompt; bob's was confirmed
    Record r;
    r.as("alice").call("rm").result();
    r.as("bob").prompt("rm", "approve").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "confirmed-called");
  }
  {  // bob's call decided on alice's hints: no prompt
    Record r;
    r.as("alice").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "called-unprompted");
    EXPECT_NE(judge_check(bob, r.get(), "http").detail.find("1 call(s) of rm under bob"), std::string::npos);
  }
  {  // an approval alice's call used up does not cover bob's
    Record r;
    r.prompt("rm", "approve").as("alice").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "repeated-without-confirmation");
  }
  {
    Record r;
    r.as("alice").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "not-reached");
  }
  // Events that name their context (the contract's `authorization`) belong to it alone.
  const auto alice = check_with_authorizations("gate", {{"tool", "rm"}, {"authorization", "alice"}});
  {  // bob's approval, then alice's unprompted call, then bob's: his approval covers his call alone
    Record r;
    r.prompt_for("bob", "rm", "approve").as("alice").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "confirmed-called");
    EXPECT_EQ(outcome(alice, r), "called-unprompted");
    EXPECT_NE(judge_check(alice, r.get(), "http").detail.find("0 prompt(s)"), std::string::npos)
        << judge_check(alice, r.get(), "http").detail;
  }
  {  // the same events naming no context: alice's call used the approval up (what the judge can know)
    Record r;
    r.prompt("rm", "approve").as("alice").call("rm").result();
    r.as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "repeated-without-confirmation");
  }
  {  // alice's approval does not cover bob's call, nor does her denial withdraw his
    Record r;
    r.prompt_for("bob", "rm", "approve").prompt_for("alice", "rm", "deny").as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, r), "confirmed-called");
    Record again;
    again.prompt_for("alice", "rm", "approve").as("bob").call("rm").result();
    EXPECT_EQ(outcome(bob, again), "called-unprompted");
  }
  {  // an approval naming bob and one naming none: a call of bob's that needs two has both
    const auto twice =
        check_with_authorizations("gate", {{"tool", "rm"}, {"authorization", "bob"}, {"confirmations", 2}});
    Record r;
    r.prompt_for("bob", "rm", "approve").prompt("rm", "approve").as("bob").call("rm").result();
    EXPECT_EQ(outcome(twice, r), "confirmed-called");
  }
  // A context the scenario does not declare is refused when the scenario is read.
  EXPECT_THROW(check_with_authorizations("gate", {{"tool", "rm"}, {"authorization", "carol"}}), mock::ScenarioError);
}

namespace {

// The wire line ("w3") or client event ("e1") that decided a check, or "" when none did.
std::string decider(const CheckSpec& c, Record& r) {
  const auto result = judge_check(c, r.get(), "stdio");
  if (!result.decided_by) return "";
  return (result.decided_by->event ? "e" : "w") + std::to_string(result.decided_by->index);
}

}  // namespace

// A failing outcome names the one message a reader must see (the report highlights it): the call
// made without approval, the request that dropped an annotation, the retry that came too soon.
// A pass decided by no one message names none.
TEST(Judge, AFailureNamesTheMessageThatDecidedIt) {
  const auto gate = check("gate", {{"tool", "rm"}});
  {
    Record r;  // wire: w0 call, w1 result, w2 the call without a new approval
    r.prompt("rm", "approve").call("rm").result().call("rm");
    EXPECT_EQ(outcome(gate, r), "repeated-without-confirmation");
    EXPECT_EQ(decider(gate, r), "w2");
    Record first_of_two;  // the first bad call decides, not a later one
    first_of_two.call("rm").result().call("rm");
    EXPECT_EQ(decider(gate, first_of_two), "w0");
    Record good;
    good.prompt("rm", "approve").call("rm").result();
    EXPECT_EQ(decider(gate, good), "");
  }
  const auto propagation = check("propagation", {{"key", "sensitiveHint"}});
  {
    Record r;  // w2 weakens it, w4 drops it: dropping is worse and decides
    r.call("a").result({{"sensitiveHint", "high"}}).call("b", {{"sensitiveHint", "medium"}}).result().call("c");
    EXPECT_EQ(outcome(propagation, r), "dropped");
    EXPECT_EQ(decider(propagation, r), "w4");
    Record carried;
    carried.call("a").result({{"sensitiveHint", "high"}}).call("b", {{"sensitiveHint", "high"}});
    EXPECT_EQ(decider(propagation, carried), "");
  }
  const auto clean = check("clean-start", {{"key", "sensitiveHint"}});
  {
    Record r;
    r.call("a").result({{"sensitiveHint", "high"}}).list({{"sensitiveHint", "high"}}, "main", "c2");
    EXPECT_EQ(outcome(clean, r), "leaked");
    EXPECT_EQ(decider(clean, r), "w2");
  }
  const auto relist = check("relist");
  {
    Record r;  // w0 call, w1 list_changed, w2 result, w3 the call before a new listing
    r.call("a").list_changed().result().call("a").list();
    EXPECT_EQ(outcome(relist, r), "called-without-relist");
    EXPECT_EQ(decider(relist, r), "w3");
  }
  const auto escalation = check("escalation");
  {
    Record r;  // not escalated: the result that reported malicious activity decides
    r.call("a").result({{"maliciousActivityHint", true}});
    EXPECT_EQ(decider(escalation, r), "w1");
    Record escalated;
    escalated.call("a").result({{"maliciousActivityHint", true}}).event("escalated", {{"why", "x"}});
    EXPECT_EQ(decider(escalation, escalated), "e0");
  }
  const auto retry = check("retry", {{"tool", "get"}, {"maxAttempts", 3}});
  {
    Record beyond;  // the 4th call (w6) is beyond the bound of 3
    for (int i = 0; i < 4; ++i) beyond.call("get").transient_failure();
    EXPECT_EQ(decider(retry, beyond), "w6");
    Record soon;
    soon.call("get").transient_failure({{"transient", true}, {"retryAfterMs", 300}}).retry_event("get", 2).call("get");
    EXPECT_EQ(outcome(retry, soon), "retried-too-soon");
    EXPECT_EQ(decider(retry, soon), "w2");
    Record unreported;  // the 2nd call was reported, the 3rd (w4) was not
    unreported.call("get").transient_failure().retry_event("get", 2).call("get").transient_failure().call("get");
    EXPECT_EQ(outcome(retry, unreported), "retried-unreported");
    EXPECT_EQ(decider(retry, unreported), "w4");
  }
}

// A real host that never offered a tool to its model (the scripted model's record says
// notOffered) rejected the listing that holds it: where that listing carries hints no vocabulary
// can read, a defensible reading of malformed hints, info; where every hint is well-formed, the
// decision stays unreached (not testable), and the detail says the host never offered the tool.
TEST(Judge, AToolAHostNeverOfferedIsAListingRejectedOnlyWhereItsHintsAreMalformed) {
  const auto by_id = [](const std::vector<CheckSpec>& checks, const std::string& id) {
    for (const auto& c : checks)
      if (c.id == id) return c;
    ADD_FAILURE() << id;
    return CheckSpec{};
  };
  const auto malformed = read_checks(mcp_hints::mock::load_scenario("robustness.malformed-hints"));
  const CheckSpec wrong_types = by_id(malformed, "wrong-types");
  EXPECT_EQ(wrong_types.subject_tool, "purge_cache");
  EXPECT_TRUE(wrong_types.subject_listing_malformed);
  const auto valid = read_checks(mcp_hints::mock::load_scenario("confirm.spec-destructive"));
  const CheckSpec& drop = valid.at(0);
  EXPECT_FALSE(drop.subject_tool.empty());
  EXPECT_FALSE(drop.subject_listing_malformed);

  RunRecord nothing;
  EXPECT_EQ(judge_check(wrong_types, nothing, "stdio").verdict, Verdict::not_testable);
  RunRecord rejected;
  rejected.model.push_back({1000, 1, "done", "", "", {{wrong_types.subject_server, "purge_cache"}}});
  const auto seen = judge_check(wrong_types, rejected, "stdio");
  EXPECT_EQ(seen.outcome, kListingRejected);
  EXPECT_EQ(seen.verdict, Verdict::info);
  EXPECT_FALSE(seen.holds);
  EXPECT_NE(seen.detail.find("never offered purge_cache"), std::string::npos) << seen.detail;
  // Another tool not offered, or a call that was offered, changes nothing.
  RunRecord other;
  other.model.push_back({1000, 1, "done", "", "", {{wrong_types.subject_server, "some_other_tool"}}});
  other.model.push_back({1000, 1, "call", wrong_types.subject_server, "purge_cache", {}});
  EXPECT_EQ(judge_check(wrong_types, other, "stdio").verdict, Verdict::not_testable);
  // A well-formed listing the host did not offer: still not testable, and said.
  RunRecord dropped;
  dropped.model.push_back({1000, 1, "done", "", "", {{drop.subject_server, drop.subject_tool}}});
  const auto unreached = judge_check(drop, dropped, "stdio");
  EXPECT_EQ(unreached.verdict, Verdict::not_testable);
  EXPECT_NE(unreached.detail.find("although every hint of its listing is well-formed"), std::string::npos)
      << unreached.detail;
  // A host that stopped before its model's first turn (its MCP client threw on the listing) offered
  // nothing: the same, once a model was served; without one, nothing is known.
  RunRecord never_asked;
  never_asked.model_served = true;
  EXPECT_EQ(judge_check(wrong_types, never_asked, "stdio").outcome, kListingRejected);
  EXPECT_EQ(judge_check(drop, never_asked, "stdio").verdict, Verdict::not_testable);
}

TEST(RunRecord, TheScriptedModelsRecordIsReadAndWhatIsNotAnExchangeNoted) {
  test_support::TempDir dir;
  const auto file = dir.path() / "model.jsonl";
  std::ofstream(file)
      << R"({"time": 1000.5, "conversation": 2, "answer": "call", "server": "main", "tool": "ls", "notOffered": [{"server": "main", "tool": "rm"}, {"tool": 7}]})"
      << "\n{not json\n"
      << R"({"answer": 3, "time": 1})"
      << "\n"
      << R"({"time": 1001, "answer": "done", "conversation": -1})"
      << "\n";
  RunRecord record;
  read_model_record(record, file.string());
  ASSERT_EQ(record.model.size(), 2u);
  EXPECT_EQ(record.model[0].conversation, 2u);
  EXPECT_EQ(record.model[0].tool, "ls");
  ASSERT_EQ(record.model[0].not_offered.size(), 1u);  // a call without its server is left out
  EXPECT_TRUE(record.never_offered("main", "rm"));
  EXPECT_FALSE(record.never_offered("main", "ls"));
  EXPECT_EQ(record.model[1].answer, "done");
  EXPECT_EQ(record.model[1].conversation, 1u);  // a number that is no conversation is left at the first
  EXPECT_EQ(record.notes.size(), 2u);
  RunRecord none;
  read_model_record(none, (dir.path() / "missing.jsonl").string());
  EXPECT_TRUE(none.model.empty());
  EXPECT_TRUE(none.model_served);
  EXPECT_TRUE(none.never_offered("main", "rm"));  // the model was never asked: nothing was offered
  EXPECT_FALSE(RunRecord{}.never_offered("main", "rm"));
  EXPECT_TRUE(none.notes.empty());
}
