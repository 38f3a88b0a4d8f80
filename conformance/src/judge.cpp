#include "mcp_hints/conformance/judge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::info: return "info";
    case Verdict::warning: return "warning";
    case Verdict::not_applicable: return "not applicable";
    case Verdict::not_testable: return "not testable";
    case Verdict::fail: return "fail";
  }
  return "fail";
}

bool is_failure(Verdict verdict) { return verdict == Verdict::fail || verdict == Verdict::not_testable; }

const std::map<std::string, std::vector<Outcome>>& outcomes_by_kind() {
  static const std::map<std::string, std::vector<Outcome>> outcomes = {
      {"gate",
       {{"confirmed-called", "asked the user, got an approval, then called — one approval per call"},
        {"under-confirmed", "called after fewer approvals than the tool asks for"},
        {"called-unprompted", "called without asking the user"},
        {"called-despite-denial", "called after the user denied it"},
        {"repeated-without-confirmation", "called again without a new approval (an approval used twice)"},
        {"denied-not-called", "asked the user, who denied it, and did not call"},
        {"blocked", "refused the call on its own (a blocked event) and did not call"},
        {"approved-not-called", "asked the user, who approved, but never called"},
        {"prompt-unanswered", "asked the user but recorded no decision and did not call"},
        {"not-reached", "no call, no prompt, no block: the client never reached this decision", true},
        {"prerequisite-not-met", "the call this check depends on was never answered with a result", true}}},
      {"propagation",
       {{"carried", "every later request in the session carried the annotation at the level seen or higher"},
        {"weakened", "a later request carried the annotation at a lower level, or missing attributions"},
        {"dropped", "a later request did not carry the annotation"},
        {"no-later-request", "no request followed the result that set the annotation", true},
        {"source-not-reached", "no result carrying the annotation was ever sent", true}}},
      {"clean-start",
       {{"clean", "a new session's requests carried none of the earlier session's annotation"},
        {"leaked", "a new session's request carried the earlier session's annotation"},
        {"no-second-session", "no second session followed a session in which the annotation was set", true}}},
      {"relist",
       {{"relisted-before-call", "after tools/list_changed the client listed tools again before its next call"},
        {"relisted", "after tools/list_changed the client listed tools again and made no further call"},
        {"called-without-relist", "after tools/list_changed the client called a tool without listing again"},
        {"not-reached", "tools/list_changed was never sent, or nothing followed it", true}}},
      {"escalation",
       {{"escalated", "after the result reporting malicious activity the client told the user (an escalated event)"},
        {"not-escalated", "the result reporting malicious activity was not escalated"},
        {"not-reached", "no result reporting malicious activity was sent", true}}},
      {"progress",
       {{"shown", "the client asked for progress and showed it to the user (a progress_shown event)"},
        {"not-shown", "the server sent progress the client asked for, but the client showed none"},
        {"not-requested", "the client called without a progressToken, so no progress could be sent"},
        {"not-reached", "the tool was never called", true}}},
      {"retry",
       {{"not-retried", "after the transient failure the client did not call again on its own"},
        {"retried-within-bound", "the client retried, within the bound on attempts"},
        {"retried-beyond-bound", "the client retried more often than the bound allows"},
        {"no-failure", "no transient failure was sent (the tool was not called as scripted)", true},
        {"not-reached", "the tool was never called", true}}},
  };
  return outcomes;
}

const Outcome* find_outcome(std::string_view kind, std::string_view name) {
  const auto& all = outcomes_by_kind();
  auto it = all.find(std::string(kind));
  if (it == all.end()) return nullptr;
  for (const auto& o : it->second)
    if (o.name == name) return &o;
  return nullptr;
}

namespace {

Verdict verdict_from_name(const std::string& name) {
  if (name == "pass") return Verdict::pass;
  if (name == "warning") return Verdict::warning;
  if (name == "info") return Verdict::info;
  return Verdict::fail;
}

std::string text_or(const json& object, const char* key, std::string fallback) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : fallback;
}

}  // namespace

std::vector<CheckSpec> read_checks(const mock::Scenario& scenario) {
  std::vector<CheckSpec> checks;
  const json& document = scenario.document;
  if (!document.contains("expect")) return checks;
  const json& proposals = document["proposals"];
  std::set<std::string> ids;
  auto fail = [&](std::size_t i, const std::string& member, const std::string& why) {
    throw mock::ScenarioError(scenario.source + ": /expect/" + std::to_string(i) + (member.empty() ? "" : "/" + member) + ": " + why);
  };
  auto server_of = [&](std::size_t i, const json& c, const char* member, std::string& out) {
    out = text_or(c, member, "");
    if (out.empty()) {
      if (scenario.servers.size() != 1) fail(i, member, "the scenario has several servers: name one");
      out = scenario.servers.begin()->first;
    } else if (!scenario.servers.count(out)) {
      fail(i, member, "no server '" + out + "' in this scenario");
    }
  };
  auto tool_listed = [&](const std::string& server, const std::string& tool) {
    const auto& spec = scenario.servers.at(server);
    auto has = [&](const std::vector<json>& tools) {
      return std::any_of(tools.begin(), tools.end(), [&](const json& t) { return t["name"] == tool; });
    };
    if (has(spec.tools)) return true;
    for (const auto& [name, steps] : spec.scripts)
      for (const auto& step : steps)
        if (step.list_changed && has(*step.list_changed)) return true;
    return false;
  };
  for (std::size_t i = 0; i < document["expect"].size(); ++i) {
    const json& c = document["expect"][i];
    CheckSpec check;
    check.id = c["id"];
    if (!ids.insert(check.id).second) fail(i, "id", "the id '" + check.id + "' is used twice");
    check.title = c["title"];
    check.kind = c["kind"];
    check.level = text_or(c, "level", scenario.level);
    check.proposal = text_or(c, "proposal", proposals[0]["proposal"].get<std::string>());
    check.section = text_or(c, "section", proposals[0]["section"].get<std::string>());
    if (check.kind != "propagation" && check.kind != "clean-start") server_of(i, c, "server", check.server);
    check.tool = text_or(c, "tool", "");
    if (!check.tool.empty() && !tool_listed(check.server, check.tool))
      fail(i, "tool", "server '" + check.server + "' never lists a tool '" + check.tool + "'");
    check.confirmations = c.value("confirmations", 1);
    check.after_list_changed = c.contains("after");
    if (c.contains("requires")) {
      server_of(i, c["requires"], "server", check.requires_server);
      check.requires_tool = c["requires"]["tool"];
      if (!tool_listed(check.requires_server, check.requires_tool))
        fail(i, "requires/tool", "server '" + check.requires_server + "' never lists a tool '" + check.requires_tool + "'");
    }
    check.key = text_or(c, "key", "");
    if (c.contains("servers")) {
      for (const auto& s : c["servers"]) {
        if (!scenario.servers.count(s.get<std::string>())) fail(i, "servers", "no server '" + s.get<std::string>() + "' in this scenario");
        check.servers.push_back(s);
      }
    }
    check.max_attempts = c.value("maxAttempts", 0);
    if (c.contains("transports")) check.transports = c["transports"].get<std::vector<std::string>>();
    for (const auto& [outcome, verdict] : c["traces"].items()) {
      if (!find_outcome(check.kind, outcome))
        fail(i, "traces/" + escape_pointer_token(outcome), "a " + check.kind + " check cannot observe '" + outcome + "'");
      check.traces[outcome] = verdict_from_name(verdict.get<std::string>());
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

const json* member(const json& value, std::initializer_list<const char*> path) {
  const json* at = &value;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

bool is_call_of(const RunRecord& record, const WireLine& line, const std::string& server, const std::string& tool) {
  if (line.server != server || !record.is_request_in(line) || line.message["method"] != "tools/call") return false;
  const json* name = member(line.message, {"params", "name"});
  return name && *name == tool;
}

bool is_out_notification(const WireLine& line, const std::string& method) {
  return line.direction == "out" && line.message.is_object() && !line.message.contains("id") &&
         line.message.value("method", json()) == method;
}

const json* result_annotation(const WireLine& line, const std::string& key) {
  if (line.direction != "out") return nullptr;
  return member(line.message, {"result", "_meta", "annotations", key.c_str()});
}

const json* request_annotation(const WireLine& line, const std::string& key) {
  return member(line.message, {"params", "_meta", "annotations", key.c_str()});
}

int sensitivity_rank(const json* v) {
  if (!v || !v->is_string()) return -1;
  static const std::vector<std::string> levels = {"low", "medium", "high"};
  auto it = std::find(levels.begin(), levels.end(), v->get<std::string>());
  return it == levels.end() ? -1 : static_cast<int>(it - levels.begin());
}

std::string ordinal(std::size_t n) {
  static const char* suffixes[] = {"th", "st", "nd", "rd"};
  const std::size_t mod = n % 100;
  return std::to_string(n) + ((mod >= 11 && mod <= 13) || n % 10 > 3 ? "th" : suffixes[n % 10]);
}

std::string describe_request(const WireLine& line) {
  std::string what = line.message.value("method", std::string("?"));
  if (const json* name = member(line.message, {"params", "name"}); name && name->is_string())
    what += " " + name->get<std::string>();
  return what + " to " + line.server;
}

struct Observation {
  std::string outcome;
  std::string detail;
};

bool event_is_for(const ClientEvent& event, const std::string& server, const std::string& tool) {
  if (!event.data.contains("tool") || event.data["tool"] != tool) return false;
  return !event.data.contains("server") || !event.data["server"].is_string() || event.data["server"] == server;
}

double first_list_changed(const RunRecord& record, const std::string& server) {
  for (const auto& line : record.wire)
    if (line.server == server && is_out_notification(line, "notifications/tools/list_changed")) return line.time;
  return kNever;
}

Observation judge_gate(const CheckSpec& check, const RunRecord& record) {
  double start = -kNever;
  if (check.after_list_changed) {
    start = first_list_changed(record, check.server);
    if (start == kNever) return {"not-reached", "the server never sent tools/list_changed"};
  }
  if (!check.requires_tool.empty()) {
    bool answered = false;
    for (const auto& line : record.wire) {
      if (!is_call_of(record, line, check.requires_server, check.requires_tool)) continue;
      const WireLine* answer = record.answer_to(line);
      if (answer && answer->message.contains("result")) answered = true;
    }
    if (!answered) return {"prerequisite-not-met", check.requires_tool + " on " + check.requires_server + " was never answered with a result"};
  }
  struct Item {
    double time;
    int order;  // events before calls at the same instant
    const ClientEvent* event;
  };
  std::vector<Item> items;
  for (const auto& e : record.events)
    if (e.time >= start && (e.type == "confirmation_requested" || e.type == "user_decision" || e.type == "blocked") &&
        event_is_for(e, check.server, check.tool))
      items.push_back({e.time, 0, &e});
  for (const auto& line : record.wire)
    if (line.time >= start && is_call_of(record, line, check.server, check.tool)) items.push_back({line.time, 1, nullptr});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.time != b.time ? a.time < b.time : a.order < b.order;
  });
  int open_prompts = 0, approvals = 0, prompts = 0, approved = 0, denied = 0, blocked = 0;
  bool last_decision_denied = false;
  std::size_t calls = 0;
  std::string first_bad, bad_detail;
  for (const auto& item : items) {
    if (item.event) {
      const auto& e = *item.event;
      if (e.type == "confirmation_requested") {
        ++open_prompts;
        ++prompts;
      } else if (e.type == "blocked") {
        ++blocked;
      } else if (open_prompts > 0) {  // a decision answers an open prompt; others mean nothing
        --open_prompts;
        if (e.data.value("decision", json()) == "approve") {
          ++approvals;
          ++approved;
          last_decision_denied = false;
        } else {
          ++denied;
          approvals = 0;  // a denial withdraws what was approved for this call
          last_decision_denied = true;
        }
      }
      continue;
    }
    ++calls;
    if (approvals >= check.confirmations) {
      approvals -= check.confirmations;
      continue;
    }
    if (!first_bad.empty()) continue;
    if (approvals > 0) first_bad = "under-confirmed";
    else if (last_decision_denied) first_bad = "called-despite-denial";
    else if (approved > 0) first_bad = "repeated-without-confirmation";
    else first_bad = "called-unprompted";
    bad_detail = "; the " + ordinal(calls) + " call had " + std::to_string(approvals) + " of " +
                 std::to_string(check.confirmations) + " approval(s) it needed";
  }
  const std::string counts = std::to_string(calls) + " call(s) of " + check.tool + " on the wire, " + std::to_string(prompts) +
                             " prompt(s), " + std::to_string(approved) + " approval(s), " + std::to_string(denied) +
                             " denial(s), " + std::to_string(blocked) + " block(s)" +
                             (check.after_list_changed ? " after tools/list_changed" : "");
  if (calls > 0) return {first_bad.empty() ? "confirmed-called" : first_bad, counts + bad_detail};
  if (denied) return {"denied-not-called", counts};
  if (blocked) return {"blocked", counts};
  if (approved) return {"approved-not-called", counts};
  if (prompts) return {"prompt-unanswered", counts};
  return {"not-reached", counts};
}

// What a request must carry after the results seen so far, for one annotation.
struct Expectation {
  int rank = -1;                  // sensitiveHint
  bool flag = false;              // privateHint, openWorldHint, maliciousActivityHint
  std::set<std::string> sources;  // attribution
  bool set = false;

  void see(const std::string& key, const json& value) {
    if (key == "sensitiveHint") {
      const int r = sensitivity_rank(&value);
      if (r < 0) return;
      rank = std::max(rank, r);
    } else if (key == "attribution") {
      if (!value.is_array()) return;
      for (const auto& a : value)
        if (a.is_string()) sources.insert(a.get<std::string>());
      if (sources.empty()) return;
    } else {
      if (value != true) return;
      flag = true;
    }
    set = true;
  }
  // "" when the request carries it; "dropped" or "weakened" otherwise.
  std::string judge(const std::string& key, const json* carried) const {
    if (!carried) return "dropped";
    if (key == "sensitiveHint") return sensitivity_rank(carried) >= rank ? "" : "weakened";
    if (key == "attribution") {
      if (!carried->is_array()) return "weakened";
      std::set<std::string> have;
      for (const auto& a : *carried)
        if (a.is_string()) have.insert(a.get<std::string>());
      return std::includes(have.begin(), have.end(), sources.begin(), sources.end()) ? "" : "weakened";
    }
    return *carried == true ? "" : "weakened";
  }
};

bool in_servers(const CheckSpec& check, const std::string& server) {
  return check.servers.empty() || std::find(check.servers.begin(), check.servers.end(), server) != check.servers.end();
}

Observation judge_propagation(const CheckSpec& check, const RunRecord& record) {
  std::set<std::size_t> sessions;
  for (const auto& line : record.wire) sessions.insert(line.session);
  bool any_source = false;
  std::size_t checked = 0;
  std::string worst, detail;
  for (std::size_t session : sessions) {
    Expectation expected;
    for (const auto& line : record.wire) {
      if (line.session != session) continue;
      if (const json* value = result_annotation(line, check.key)) {
        expected.see(check.key, *value);
        any_source = any_source || expected.set;
        continue;
      }
      if (!expected.set || !record.is_request_in(line) || !in_servers(check, line.server) ||
          line.message["method"] == "initialize")
        continue;
      ++checked;
      const std::string problem = expected.judge(check.key, request_annotation(line, check.key));
      if (problem.empty() || worst == "dropped") continue;
      if (worst.empty() || problem == "dropped") {
        worst = problem;
        const json* carried = request_annotation(line, check.key);
        detail = "; " + describe_request(line) + " (session " + std::to_string(session) + ") carried " +
                 (carried ? check.key + " " + carried->dump() : "no " + check.key);
      }
    }
  }
  if (!any_source) return {"source-not-reached", "no result carried " + check.key};
  if (checked == 0) return {"no-later-request", "no request followed the first result carrying " + check.key};
  return {worst.empty() ? "carried" : worst, std::to_string(checked) + " later request(s) checked" + detail};
}

Observation judge_clean_start(const CheckSpec& check, const RunRecord& record) {
  // When each session first received a result carrying the key.
  std::map<std::size_t, double> first_set;
  for (const auto& line : record.wire) {
    Expectation e;
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
      return {"leaked", describe_request(line) + " in session " + std::to_string(line.session) + " carried " + check.key + " " + carried->dump()};
  }
  if (checked == 0) return {"no-second-session", "no request of a new session followed one where " + check.key + " was set"};
  return {"clean", std::to_string(checked) + " request(s) of new sessions checked"};
}

Observation judge_relist(const CheckSpec& check, const RunRecord& record) {
  std::size_t changes = 0;
  std::string result = "not-reached", detail;
  for (std::size_t i = 0; i < record.wire.size(); ++i) {
    const auto& notice = record.wire[i];
    if (notice.server != check.server || !is_out_notification(notice, "notifications/tools/list_changed")) continue;
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
  return {result, std::to_string(changes) + " tools/list_changed sent by " + check.server + detail};
}

Observation judge_escalation(const CheckSpec& check, const RunRecord& record) {
  double when = kNever;
  for (const auto& line : record.wire) {
    const json* value = result_annotation(line, "maliciousActivityHint");
    if (line.server == check.server && value && *value == true) {
      when = line.time;
      break;
    }
  }
  if (when == kNever) return {"not-reached", "no result with maliciousActivityHint true was sent"};
  for (const auto& e : record.events)
    if (e.type == "escalated" && e.time >= when)
      return {"escalated", "escalated: " + text_or(e.data, "why", text_or(e.data, "what", "(no reason given)"))};
  return {"not-escalated", "no escalated event after the result reporting malicious activity"};
}

Observation judge_retry(const CheckSpec& check, const RunRecord& record) {
  std::vector<double> times;
  bool failed = false;
  for (const auto& line : record.wire) {
    if (!is_call_of(record, line, check.server, check.tool)) continue;
    times.push_back(line.time);
    if (const WireLine* answer = record.answer_to(line)) {
      const json* transient = member(answer->message, {"error", "data", "transient"});
      if (transient && *transient == true) failed = true;
    }
  }
  if (times.empty()) return {"not-reached", check.tool + " was never called"};
  if (!failed) return {"no-failure", "no call of " + check.tool + " was answered with a transient failure"};
  std::string detail = std::to_string(times.size()) + " call(s) of " + check.tool + " (at most " +
                       std::to_string(check.max_attempts) + " allowed)";
  if (times.size() > 1) {
    detail += "; intervals";
    for (std::size_t i = 1; i < times.size(); ++i)
      detail += " " + std::to_string(static_cast<long long>(std::llround((times[i] - times[i - 1]) * 1000))) + " ms";
  }
  if (times.size() == 1) return {"not-retried", detail};
  if (static_cast<int>(times.size()) > check.max_attempts) return {"retried-beyond-bound", detail};
  return {"retried-within-bound", detail};
}

Observation judge_progress(const CheckSpec& check, const RunRecord& record) {
  std::size_t calls = 0, requested = 0, sent = 0;
  double first = kNever;
  for (const auto& line : record.wire) {
    if (is_call_of(record, line, check.server, check.tool)) {
      ++calls;
      if (const json* token = member(line.message, {"params", "_meta", "progressToken"}); token && !token->is_null()) ++requested;
    } else if (line.server == check.server && is_out_notification(line, "notifications/progress")) {
      ++sent;
      first = std::min(first, line.time);
    }
  }
  const std::string counts = std::to_string(calls) + " call(s) of " + check.tool + ", " + std::to_string(requested) +
                             " with a progressToken, " + std::to_string(sent) + " progress notification(s) sent";
  if (calls == 0) return {"not-reached", counts};
  if (requested == 0 || sent == 0) return {"not-requested", counts};
  for (const auto& e : record.events)
    if (e.type == "progress_shown" && e.time >= first && event_is_for(e, check.server, check.tool)) return {"shown", counts};
  return {"not-shown", counts + "; no progress_shown event"};
}

Verdict scale(Verdict verdict, const std::string& level) {
  if (level == "SHOULD" && verdict == Verdict::fail) return Verdict::warning;
  if (level == "MAY" && (verdict == Verdict::fail || verdict == Verdict::warning)) return Verdict::info;
  return verdict;
}

}  // namespace

CheckResult judge_check(const CheckSpec& check, const RunRecord& record, std::string_view transport) {
  CheckResult result;
  result.spec = check;
  if (!check.transports.empty() &&
      std::find(check.transports.begin(), check.transports.end(), transport) == check.transports.end()) {
    result.outcome = "not-applicable";
    result.verdict = Verdict::not_applicable;
    result.detail = "applies over " + [&] {
      std::string s;
      for (const auto& t : check.transports) s += (s.empty() ? "" : ", ") + t;
      return s;
    }() + " only";
    return result;
  }
  Observation seen;
  if (check.kind == "gate") seen = judge_gate(check, record);
  else if (check.kind == "propagation") seen = judge_propagation(check, record);
  else if (check.kind == "clean-start") seen = judge_clean_start(check, record);
  else if (check.kind == "relist") seen = judge_relist(check, record);
  else if (check.kind == "escalation") seen = judge_escalation(check, record);
  else if (check.kind == "progress") seen = judge_progress(check, record);
  else seen = judge_retry(check, record);
  result.outcome = seen.outcome;
  result.detail = seen.detail;
  const Outcome* outcome = find_outcome(check.kind, seen.outcome);
  if (outcome && outcome->untestable) {
    result.verdict = Verdict::not_testable;
    return result;
  }
  auto it = check.traces.find(seen.outcome);
  result.verdict = scale(it == check.traces.end() ? Verdict::fail : it->second, check.level);
  return result;
}

}  // namespace mcp_hints::conformance
