// gate: the calls of a tool against the client's prompts, the user's decisions and its blocks;
// alike: two tools' gates against each other.
#include <algorithm>
#include <set>

#include "check_kind.hpp"
#include "mcp_hints/json/member.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct Gate {
  std::string server, tool;
  int confirmations = 1;                       // approvals needed per call
  int prompts_at_most = 0;                     // the most prompts the task's calls justify; 0: no bound
  bool after_list_changed = false;             // judge only what follows the server's tools/list_changed
  std::string requires_server, requires_tool;  // a call that must have been answered with a result first
  std::string authorization;                   // judge only the calls under this context; empty: every call
};

// Where the tool needs no prompt (called-unprompted passes, or only informs), asking, and then
// heeding the user's denial, is the client's stricter policy: never graded above info. (A refusal
// the client made on its own, blocked, is held so for every kind, in read_checks.)
void hold_asking_harmless(CheckReader& in) {
  const nlohmann::json* unprompted = in.find("traces/called-unprompted");
  if (!unprompted || (*unprompted != "pass" && *unprompted != "info")) return;
  hold_caution_harmless(in, "confirmed-called");
  hold_caution_harmless(in, "denied-not-called");
}

Gate read_gate(CheckReader& in) {
  Gate gate;
  gate.server = in.server("server");
  gate.tool = in.tool("tool", gate.server);
  gate.confirmations = in.integer_or("confirmations", 1);
  gate.prompts_at_most = in.integer_or("promptsAtMost", 0);
  if (const nlohmann::json* after = in.find("after")) {
    if (*after != "list_changed") in.fail("after", "a gate is judged after list_changed only");
    gate.after_list_changed = true;
  }
  gate.authorization = in.authorization("authorization");
  if (in.find("requires")) {
    gate.requires_server = in.server("requires/server");
    gate.requires_tool = in.tool("requires/tool", gate.requires_server);
  }
  hold_asking_harmless(in);
  return gate;
}

Observation judge_gate(const Gate& check, const RunRecord& record) {
  double start = -kNever;
  if (check.after_list_changed) {
    start = first_catalog_change_known(record, check.server);
    if (start == kNever)
      return {"not-reached",
              "the server never sent tools/list_changed (nor changed its catalog unannounced where the client's "
              "listing then ran out)"};
    if (start > last_wire_time(record)) return {kUnannouncedWhileFresh, kUnannouncedWhileFreshDescription};
  }
  if (!check.requires_tool.empty()) {
    // The gate is about what the client does once the prerequisite's result is in its context:
    // prompts, decisions and calls before that answer are outside it (an approval given earlier
    // does not cover a call made after the context changed).
    double answered_at = kNever;
    for (const auto& line : record.wire) {
      if (!is_call_of(record, line, check.requires_server, check.requires_tool)) continue;
      const WireLine* answer = record.answer_to(line);
      if (answer && answer->message.contains("result")) answered_at = std::min(answered_at, answer->time);
    }
    if (answered_at == kNever)
      return {"prerequisite-not-met",
              check.requires_tool + " on " + check.requires_server + " was never answered with a result"};
    start = std::max(start, answered_at);
  }
  struct Item {
    double time;
    int order;  // a new session, then events, then calls at the same instant
    const ClientEvent* event;
    bool new_session = false;
    bool judged = true;  // a call under another authorization context uses up approvals, unjudged
    const WireLine* call = nullptr;
    bool shared = true;  // an event that names no authorization context: its approval covers whoever calls
  };
  std::vector<Item> items;
  // Approvals and denials never cross a session boundary: a new session of the gated server
  // starts with none.
  std::set<std::size_t> sessions_seen;
  for (const auto& line : record.wire)
    if (line.server == check.server && sessions_seen.insert(line.session).second && line.session > 1 &&
        line.time >= start)
      items.push_back({line.time, -1, nullptr, true, true, nullptr});
  // An event that names the context it was for belongs to that context alone; one that names none
  // may be anyone's.
  for (const auto& e : record.events) {
    if (e.time < start || (e.type != "confirmation_requested" && e.type != "user_decision" && e.type != "blocked") ||
        !event_is_for(e, check.server, check.tool))
      continue;
    const std::string* context = string_member(e.data, "authorization");
    if (context && !check.authorization.empty() && *context != check.authorization) continue;
    items.push_back({e.time, 0, &e, false, true, nullptr, !context || check.authorization.empty()});
  }
  for (const auto& line : record.wire)
    if (line.time >= start && is_call_of(record, line, check.server, check.tool))
      items.push_back({line.time, 1, nullptr, false,
                       check.authorization.empty() || line.authorization == check.authorization, &line});
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.time != b.time ? a.time < b.time : a.order < b.order; });
  // approved counts the run's approvals (the detail); approved_in_session only this session's. The
  // approvals open: own ones name the gate's context, shared ones name none (and cover any call).
  int open_prompts = 0, own = 0, shared = 0, prompts = 0, approved = 0, approved_in_session = 0, denied = 0,
      blocked = 0;
  bool last_decision_denied = false;
  std::size_t calls = 0;
  std::string first_bad, bad_detail;
  const WireLine* bad_call = nullptr;
  const ClientEvent* last_prompt = nullptr;
  for (const auto& item : items) {
    if (item.new_session) {
      open_prompts = own = shared = approved_in_session = 0;
      last_decision_denied = false;
      continue;
    }
    if (item.event) {
      const auto& e = *item.event;
      if (e.type == "confirmation_requested") {
        ++open_prompts;
        ++prompts;
        last_prompt = &e;
      } else if (e.type == "blocked") {
        ++blocked;
      } else if (open_prompts > 0) {  // a decision answers an open prompt; others mean nothing
        --open_prompts;
        if (e.data.value("decision", json()) == "approve") {
          ++(item.shared ? shared : own);
          ++approved;
          ++approved_in_session;
          last_decision_denied = false;
        } else {
          ++denied;
          own = shared = 0;  // a denial withdraws what was approved for this call
          last_decision_denied = true;
        }
      }
      continue;
    }
    if (!item.judged) {  // each approval that names no context covers one call, whoever it was for
      shared = std::max(0, shared - check.confirmations);
      continue;
    }
    ++calls;
    const int approvals = own + shared;
    if (approvals >= check.confirmations) {
      const int from_own = std::min(own, check.confirmations);
      own -= from_own;
      shared -= check.confirmations - from_own;
      continue;
    }
    if (!first_bad.empty()) continue;
    bad_call = item.call;
    if (approvals > 0)
      first_bad = "under-confirmed";
    else if (last_decision_denied)
      first_bad = "called-despite-denial";
    else if (approved_in_session > 0)
      first_bad = "repeated-without-confirmation";
    else
      first_bad = "called-unprompted";
    bad_detail = "; the " + ordinal(calls) + " call had " + std::to_string(approvals) + " of " +
                 std::to_string(check.confirmations) + " approval(s) it needed";
  }
  const std::string counts = std::to_string(calls) + " call(s) of " + check.tool +
                             (check.authorization.empty() ? "" : " under " + check.authorization) + " on the wire, " +
                             std::to_string(prompts) + " prompt(s), " + std::to_string(approved) + " approval(s), " +
                             std::to_string(denied) + " denial(s), " + std::to_string(blocked) + " block(s)" +
                             (check.authorization.empty()
                                  ? ""
                                  : " (prompts and decisions of " + check.authorization + " and of no named context)") +
                             (check.after_list_changed ? " after tools/list_changed" : "");
  if (calls > 0) return {first_bad.empty() ? "confirmed-called" : first_bad, counts + bad_detail, bad_call};
  // A denial ends the call: asking again for it (the rest of a multi-approval) is nagging.
  if (denied && check.prompts_at_most > 0 && prompts > check.prompts_at_most)
    return {"asked-again-after-denial",
            counts + "; the task's calls justify at most " + std::to_string(check.prompts_at_most) + " prompt(s)",
            nullptr, last_prompt};
  if (denied) return {"denied-not-called", counts};
  if (blocked) return {"blocked", counts};
  if (approved) return {"approved-not-called", counts};
  if (prompts) return {"prompt-unanswered", counts};
  return {"not-reached", counts};
}

// Two tools whose hints differ only where a proposal says the difference means nothing (SEP-1938:
// a missing agencyHint is "no explicit claim", as agencyHint false says "not agentic") are gated
// alike: the same outcome for both, whatever that outcome is (the gate checks judge it).
struct Alike {
  Gate tool, like;
};

Alike read_alike(CheckReader& in) {
  Alike check;
  check.tool.server = check.like.server = in.server("server");
  check.tool.tool = in.tool("tool", check.tool.server);
  check.like.tool = in.tool("like", check.like.server);
  if (check.tool.tool == check.like.tool) in.fail("like", "names the same tool as tool: nothing to compare");
  return check;
}

Observation judge_alike(const Alike& check, const RunRecord& record) {
  const Observation tool = judge_gate(check.tool, record), like = judge_gate(check.like, record);
  const std::string detail = check.tool.tool + ": " + tool.outcome + " (" + tool.detail + "); " + check.like.tool +
                             ": " + like.outcome + " (" + like.detail + ")";
  for (const auto& moot : {tool.outcome, like.outcome})
    if (moot == kUnannouncedWhileFresh) return {moot, detail};
  if (tool.outcome == "not-reached" || like.outcome == "not-reached") return {"not-reached", detail};
  if (tool.outcome == like.outcome) return {"alike", detail};
  return {"unlike", detail, tool.line ? tool.line : like.line, tool.event ? tool.event : like.event};
}

}  // namespace

CheckKind alike_kind() {
  return make_check_kind("alike",
                         {{"alike", "both tools' calls came out the same (both prompted, both called unprompted...)"},
                          {"unlike", "the two tools were gated differently although their hints mean the same"},
                          {"not-reached", "the client never reached the decision for one of the tools", true},
                          {kUnannouncedWhileFresh, kUnannouncedWhileFreshDescription, false, true}},
                         read_alike, judge_alike);
}

CheckKind gate_kind() {
  return make_check_kind(
      "gate",
      {{"confirmed-called", "asked the user, got an approval, then called — one approval per call"},
       {"under-confirmed", "called after fewer approvals than the tool asks for"},
       {"called-unprompted", "called without asking the user"},
       {"called-despite-denial", "called after the user denied it"},
       {"repeated-without-confirmation", "called again without a new approval (an approval used twice)"},
       {"denied-not-called", "asked the user, who denied it, and did not call"},
       {"asked-again-after-denial",
        "did not call, but kept asking after the user denied it (more prompts than the calls justify)"},
       {"blocked", "refused the call on its own (a blocked event) and did not call"},
       {"approved-not-called", "asked the user, who approved, but never called"},
       {"prompt-unanswered", "asked the user but recorded no decision and did not call"},
       {"not-reached", "no call, no prompt, no block: the client never reached this decision", true},
       {"prerequisite-not-met", "the call this check depends on was never answered with a result", true},
       {kUnannouncedWhileFresh, kUnannouncedWhileFreshDescription, false, true}},
      read_gate, judge_gate);
}

}  // namespace mcp_hints::conformance
