// cache-scope: whether each call a client makes under an authorization context follows a tool
// listing it got under that same context, or one got under another context, and then whether
// that listing's cacheScope allowed serving it across contexts (2026-07-28: "private" ... Caches
// MUST NOT be shared across authorization contexts; "public" ... MAY ... serve it across
// authorization contexts).
#include <algorithm>
#include <map>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct CacheScope {
  std::vector<std::string> servers;  // empty: every server
};

CacheScope read_cache_scope(CheckReader& in) { return {in.servers("servers")}; }

// From best to worst: a call's outcome, and the run's (its worst call's).
const std::vector<std::string>& ranked_outcomes() {
  static const std::vector<std::string> ranked = {"listed-in-context", "reused-public", "called-unlisted",
                                                  "reused-private"};
  return ranked;
}

std::size_t rank(const std::string& outcome) {
  const auto& ranked = ranked_outcomes();
  return static_cast<std::size_t>(std::find(ranked.begin(), ranked.end(), outcome) - ranked.begin());
}

// The listings the client had before a call: under the call's own context, and under others by
// their cacheScope (anything but "public" may hold user-specific data).
std::string judge_call(const RunRecord& record, const WireLine& call, std::string& why) {
  bool own = false, other_private = false, other_public = false;
  std::string other;
  for (const auto& line : record.wire) {
    if (line.time > call.time) break;
    if (line.server != call.server || !record.is_request_in(line) || method_of(line) != "tools/list") continue;
    const WireLine* answer = record.answer_to(line);
    if (!answer || !answer->message.contains("result") || answer->time > call.time) continue;
    if (line.authorization == call.authorization) {
      own = true;
      continue;
    }
    const json* scope = member(answer->message, {"result", "cacheScope"});
    (scope && *scope == "public" ? other_public : other_private) = true;
    if (other.empty()) other = line.authorization.empty() ? "no authorization" : line.authorization;
  }
  if (own) return "listed-in-context";
  if (other_private) {
    why = "under " + call.authorization + ", " + describe_request(call) + " followed no listing of " +
          call.authorization + "'s, only " + other + "'s private one";
    return "reused-private";
  }
  if (other_public) return "reused-public";
  why = "under " + call.authorization + ", " + describe_request(call) + " followed no listing at all";
  return "called-unlisted";
}

Observation judge_cache_scope(const CacheScope& check, const RunRecord& record) {
  std::map<std::string, std::string> by_context;  // context -> its worst call's outcome
  std::string worst = ranked_outcomes().front(), detail;
  const WireLine* worst_call = nullptr;
  for (const auto& line : record.wire) {
    const bool judged = check.servers.empty() ||
                        std::find(check.servers.begin(), check.servers.end(), line.server) != check.servers.end();
    if (!judged || line.authorization.empty() || !record.is_request_in(line) || method_of(line) != "tools/call")
      continue;
    std::string why;
    const std::string outcome = judge_call(record, line, why);
    auto [it, added] = by_context.emplace(line.authorization, outcome);
    if (!added && rank(outcome) > rank(it->second)) it->second = outcome;
    if (rank(outcome) > rank(worst)) {
      worst = outcome;
      detail = "; " + why;
      worst_call = &line;
    }
  }
  std::string seen;
  for (const auto& [context, outcome] : by_context) seen += (seen.empty() ? "" : ", ") + context + ": " + outcome;
  if (by_context.size() < 2)
    return {"not-reached", "calls under " + std::to_string(by_context.size()) + " authorization context(s)" +
                               (seen.empty() ? "" : " (" + seen + ")") + "; the check needs two"};
  return {worst, "calls by authorization context (the worst of each): " + seen + detail, worst_call};
}

}  // namespace

CheckKind cache_scope_kind() {
  return make_check_kind(
      "cache-scope",
      {{"listed-in-context", "every call under an authorization context followed a listing made under that context"},
       {"reused-public",
        "a call under one authorization context followed no listing of its own, only another context's listing "
        "whose cacheScope is public"},
       {"called-unlisted", "a call under an authorization context followed no listing at all"},
       {"reused-private",
        "a call under one authorization context followed no listing of its own, but another context's private "
        "listing: a private catalog served across authorization contexts"},
       {"not-reached", "the client did not call under two authorization contexts", true}},
      read_cache_scope, judge_cache_scope);
}

}  // namespace mcp_hints::conformance
