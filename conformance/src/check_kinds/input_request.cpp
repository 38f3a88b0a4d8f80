// input-request: in the stateless era a server asks for input by answering a call with an
// InputRequiredResult; the client retries the call with inputResponses. Each elicitation must
// reach the user (confirmation_requested, then user_decision, between that answer and the retry),
// and the retry must carry the user's answer, never one the client made up. A client need not
// fulfil a request nor retry ("Servers MUST NOT assume that clients will fulfill the
// `inputRequests` or retry the original request", 2026-07-28): leaving the call is caution. A client
// that did not declare the capability an input request needs is never asked (the mock answers
// -32021): not applicable.
#include <algorithm>
#include <map>
#include <set>

#include "check_kind.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

using InputRequest = ToolOnServer;

bool asks_for_input(const WireLine* answer) {
  const json* type = answer ? member(answer->message, {"result", "resultType"}) : nullptr;
  return type && *type == "input_required";
}

// A call the server refused with -32021 for lack of a capability an input request needs: it may
// not ask a client for what the request did not declare (SEP-2322), so it asked nothing. A
// refusal is judged beside what was asked: a client that declares the capability on one call and
// not on the next is judged on neither alone (moot, not a pass).
constexpr const char* kNotDeclared = "capability-not-declared";
bool refused_for_input(const WireLine* answer) {
  const json* code = answer ? member(answer->message, {"error", "code"}) : nullptr;
  if (!code || *code != missing_required_client_capability) return false;
  const json* required = member(answer->message, {"error", "data", "requiredCapabilities"});
  if (!required || !required->is_object()) return false;
  return required->contains("elicitation") || required->contains("sampling") || required->contains("roots");
}

// The outcomes, worst first: the one a run with several input requests is judged by.
const std::vector<std::string>& by_severity() {
  static const std::vector<std::string> order = {
      "answered-without-user", "answer-not-users",     "not-shown",  "retry-incomplete",
      "not-fulfilled",         "approved-not-retried", kNotDeclared, "answered-by-user"};
  return order;
}

// Whether outcome `a` is worse than `b` (any outcome is worse than none yet).
bool worse(const std::string& a, const std::string& b) {
  const auto& order = by_severity();
  return b.empty() || std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
}

// One prompt between an input_required answer and its retry: the input request it names (the
// contract's `input`; empty when it names none), the message it showed, and the user's decision.
struct Prompt {
  std::string input, message, decision;
};

// The user's decision on each elicitation request (key, message), by key: the prompt that names it;
// else the unnamed prompt that showed its message (a host that shows the server's words but names
// no key, in whatever order it shows them); else, among the unnamed prompts that showed no
// request's message, the one prompt (shown for them all) or those prompts in the requests' order.
// A request no prompt answered is absent.
std::map<std::string, std::string> decisions_for(const std::vector<std::pair<std::string, std::string>>& requests,
                                                 const std::vector<Prompt>& prompts) {
  std::set<std::string> messages;
  for (const auto& request : requests)
    if (!request.second.empty()) messages.insert(request.second);
  std::vector<const Prompt*> rest;
  for (const auto& p : prompts)
    if (p.input.empty() && !messages.count(p.message)) rest.push_back(&p);
  std::map<std::string, std::string> decisions;
  std::size_t position = 0;
  for (const auto& [key, message] : requests) {
    auto named = std::find_if(prompts.begin(), prompts.end(), [&](const Prompt& p) { return p.input == key; });
    if (named == prompts.end() && !message.empty())
      named = std::find_if(prompts.begin(), prompts.end(),
                           [&](const Prompt& p) { return p.input.empty() && p.message == message; });
    if (named != prompts.end())
      decisions[key] = named->decision;
    else if (rest.size() == 1)
      decisions[key] = rest.front()->decision;
    else if (position < rest.size())
      decisions[key] = rest[position++]->decision;
  }
  return decisions;
}

// One input_required answer, judged up to the next call of the tool (its retry), if any.
std::string judge_one(const InputRequest& check, const RunRecord& record, const WireLine& answer, const WireLine* retry,
                      std::string& detail) {
  const double until = retry ? retry->time : kNever;
  std::vector<Prompt> prompts;
  std::string decision;        // the last one
  bool shows_request = false;  // the last prompt showed an input request
  for (const auto& e : record.events) {
    if (e.time < answer.time || e.time > until || !event_is_for(e, check.server, check.tool)) continue;
    // Only a prompt that shows an input request (the contract's `input` or `message`) counts, and
    // the decision on it: a prompt with neither is a gate's, about a call of the tool.
    if (e.type == "confirmation_requested") {
      shows_request = e.data.contains("input") || e.data.contains("message");
      if (shows_request) prompts.push_back({text_or(e.data, "input", ""), text_or(e.data, "message", ""), ""});
    }
    if (e.type == "user_decision" && shows_request && !prompts.empty()) {
      decision = text_or(e.data, "decision", "");
      if (prompts.back().decision.empty()) prompts.back().decision = decision;
    }
  }
  detail =
      std::to_string(prompts.size()) + " prompt(s)" + (decision.empty() ? "" : ", the user's decision: " + decision);
  if (!retry) {
    if (prompts.empty()) return "not-fulfilled";
    return decision == "approve" || decision.empty() ? "approved-not-retried" : "answered-by-user";
  }
  const json* responses = member(retry->message, {"params", "inputResponses"});
  if (prompts.empty() && !responses) {
    detail += "; the call was made again without an answer";
    return "not-shown";
  }
  if (prompts.empty() || decision.empty()) {
    detail += responses ? "; the retry carried inputResponses " + responses->dump() : "; the retry carried no answer";
    return "answered-without-user";
  }
  const json* requests = member(answer.message, {"result", "inputRequests"});
  const json* state = member(answer.message, {"result", "requestState"});
  if (state && member(retry->message, {"params", "requestState"}) == nullptr) {
    detail += "; the retry did not return the requestState";
    return "retry-incomplete";
  }
  if (!requests || !requests->is_object()) return "answered-by-user";
  // Each request against the user's decision on it: one answer is never another's.
  std::vector<std::pair<std::string, std::string>> elicitations;
  for (const auto& [key, request] : requests->items())
    if (request.is_object() && request.value("method", "") == "elicitation/create")
      elicitations.emplace_back(key, text_or(request.value("params", json::object()), "message", ""));
  const auto decisions = decisions_for(elicitations, prompts);
  for (const auto& [key, request] : requests->items()) {
    const json* response = responses ? member(*responses, {key.c_str()}) : nullptr;
    if (!response) {
      detail += "; the retry has no answer to '" + key + "'";
      return "retry-incomplete";
    }
    if (!request.is_object() || request.value("method", "") != "elicitation/create") continue;
    const auto decided = decisions.find(key);
    const std::string users = decided == decisions.end() ? "" : decided->second;
    const std::string action = text_or(*response, "action", "");
    if (users.empty()) {
      detail += "; no prompt showed '" + key + "', which the retry answered " +
                (action.empty() ? "without an action" : action);
      return "answered-without-user";
    }
    if ((action == "accept") != (users == "approve")) {
      detail += "; the retry answered '" + key + "' with " + (action.empty() ? "no action" : action) +
                " after the user's " + users;
      return "answer-not-users";
    }
  }
  return "answered-by-user";
}

Observation judge_input_request(const InputRequest& check, const RunRecord& record) {
  std::size_t asked = 0;
  const WireLine* refused = nullptr;  // the first call refused with -32021
  std::string worst, detail;
  const WireLine* worst_line = nullptr;  // the retry judged, else the answer that asked
  for (std::size_t i = 0; i < record.wire.size(); ++i) {
    const auto& line = record.wire[i];
    if (!is_call_of(record, line, check.server, check.tool)) continue;
    const WireLine* answer = record.answer_to(line);
    if (refused_for_input(answer)) {
      if (!refused) refused = answer;
      continue;
    }
    if (!asks_for_input(answer)) continue;
    ++asked;
    // The retry: the next call of the tool in the session that carries an answer or the request's
    // state, or repeats the arguments; a call with other arguments is the task's next one.
    const WireLine* retry = nullptr;
    const json* arguments = member(line.message, {"params", "arguments"});
    for (std::size_t j = i + 1; j < record.wire.size() && !retry; ++j) {
      const WireLine& next = record.wire[j];
      if (next.session != line.session || next.time < answer->time ||
          !is_call_of(record, next, check.server, check.tool))
        continue;
      const json* next_arguments = member(next.message, {"params", "arguments"});
      const bool same_arguments =
          (arguments == nullptr) == (next_arguments == nullptr) && (!arguments || *arguments == *next_arguments);
      if (same_arguments || member(next.message, {"params", "inputResponses"}) ||
          member(next.message, {"params", "requestState"}))
        retry = &next;
    }
    std::string here_detail;
    const std::string here = judge_one(check, record, *answer, retry, here_detail);
    if (worse(here, worst)) {
      worst = here;
      worst_line = retry ? retry : answer;
      detail = "; the " + ordinal(asked) + ": " + here_detail;
    }
  }
  if (refused) {
    if (worse(kNotDeclared, worst)) {
      worst = kNotDeclared;
      worst_line = refused;
    }
    detail += "; a call was refused with -32021, the client not declaring what the input request needs: " +
              refused->message["error"]["data"]["requiredCapabilities"].dump();
  }
  if (asked == 0 && !refused) {
    const bool called = std::any_of(record.wire.begin(), record.wire.end(), [&](const WireLine& line) {
      return is_call_of(record, line, check.server, check.tool);
    });
    if (const ClientEvent* block = called ? nullptr : first_block_of(record, check.server, check.tool))
      return {"blocked",
              check.tool + " was refused by the client on its own and never called: no input request to show", nullptr,
              block};
    return {"not-reached", "no call of " + check.tool + " on " + check.server + " was answered input_required"};
  }
  return {worst, std::to_string(asked) + " input_required answer(s) to " + check.tool + detail, worst_line};
}

}  // namespace

CheckKind input_request_kind() {
  return make_check_kind(
      "input-request",
      {{"answered-by-user",
        "each input request reached the user, and the retry carried the user's answer (or, after a denial, no retry)"},
       {"answered-without-user", "the client answered an input request without showing it to the user"},
       {"answer-not-users",
        "the retry's answer contradicts the user's decision (accept after a denial, or the reverse)"},
       {"not-shown", "the client made the call again without an answer and without showing the input request"},
       {"not-fulfilled",
        "the client neither showed an input request nor retried the call: it declined to fulfil it, which the "
        "revision allows (\"Servers MUST NOT assume that clients will fulfill the `inputRequests` or retry\")"},
       {"retry-incomplete", "the retry lacked an answer to an input request, or the requestState"},
       {"approved-not-retried",
        "the user approved, but the client never retried the call with the answer (the revision allows it)"},
       {"blocked", "the client refused the tool on its own (a blocked event) and never called it: nothing to show"},
       {kNotDeclared,
        "the client did not declare the capability an input request needs, and the server refused a call with "
        "-32021 (\"Servers MUST NOT send an inputRequests that the client has not declared support for in its "
        "capabilities\"): nothing was asked",
        false, true},
       {"not-reached", "no call of the tool was answered with input_required", true}},
      read_tool_on_server, judge_input_request);
}

}  // namespace mcp_hints::conformance
