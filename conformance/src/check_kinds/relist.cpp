// relist: whether the client lists tools again before it calls one, after the server's
// tools/list_changed or, with "when": "new-session", at the start of every later session (a
// listing never outlives the session it came from), or, with "when": "ttl-expiry", once the
// stateless era's listing has outlived its ttlMs.
#include <map>
#include <vector>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct Relist {
  std::string server;
  bool new_session = false;
  bool ttl_expiry = false;
};

Relist read_relist(CheckReader& in) {
  Relist relist{in.server("server")};
  const std::string when = in.text_or("when", "list-changed");
  relist.new_session = when == "new-session";
  relist.ttl_expiry = when == "ttl-expiry";
  return relist;
}

// Each call against the listing it was made under (the session's latest tools/list answer before
// it): a call after that listing's ttlMs ran out used a stale catalog.
Observation judge_ttl_expiry(const Relist& check, const RunRecord& record) {
  struct Listing {
    std::size_t session;
    double time, ttl_seconds;
  };
  std::vector<Listing> listings;
  std::size_t judged = 0;
  bool relisted = false;  // a tools/list came once an earlier listing of its session ran out
  std::string stale;
  const WireLine* stale_call = nullptr;
  for (const auto& line : record.wire) {
    if (line.server != check.server || !record.is_request_in(line)) continue;
    const std::string method = method_of(line);
    if (method == "tools/list") {
      for (const auto& l : listings)
        relisted = relisted || (l.session == line.session && line.time > l.time + l.ttl_seconds + kTtlSlackSeconds);
      const WireLine* answer = record.answer_to(line);
      const json* ttl = answer ? member(answer->message, {"result", "ttlMs"}) : nullptr;
      if (ttl && ttl->is_number_integer()) listings.push_back({line.session, answer->time, ttl->get<double>() / 1000});
      continue;
    }
    if (method != "tools/call") continue;
    const Listing* under = nullptr;
    bool one_expired = false;  // some listing of the session ran out before this call
    for (const auto& l : listings) {
      if (l.session != line.session || l.time > line.time) continue;
      under = &l;
      one_expired = one_expired || line.time > l.time + l.ttl_seconds + kTtlSlackSeconds;
    }
    if (!under || !one_expired) continue;
    ++judged;
    const double age = line.time - under->time;
    if (age > under->ttl_seconds + kTtlSlackSeconds && stale.empty()) {
      stale_call = &line;
      stale = "; " + describe_request(line) + " came " + std::to_string(static_cast<long long>(age * 1000)) +
              " ms after the listing it used, whose ttlMs was " +
              std::to_string(static_cast<long long>(under->ttl_seconds * 1000));
    }
  }
  if (judged == 0)
    return relisted
               ? Observation{"relisted",
                             "the client listed tools again once its listing's ttlMs ran out, and made "
                             "no call of " +
                                 check.server + " after"}
               : Observation{"not-reached", "no call of " + check.server + " came after a listing's ttlMs ran out"};
  return {stale.empty() ? "relisted-before-call" : "called-without-relist",
          std::to_string(judged) + " call(s) to " + check.server + " after a listing's ttlMs ran out" + stale,
          stale_call};
}

// In each session of the server after the first: a tools/list before the first tools/call?
Observation judge_new_sessions(const Relist& check, const RunRecord& record) {
  std::map<std::size_t, std::string> by_session;  // session -> outcome
  std::string detail;
  const WireLine* unlisted_call = nullptr;
  for (const auto& line : record.wire) {
    if (line.server != check.server || line.session < 2 || !record.is_request_in(line)) continue;
    auto [it, added] = by_session.emplace(line.session, "not-reached");
    if (it->second != "not-reached" && it->second != "relisted") continue;
    const std::string method = method_of(line);
    if (method == "tools/list") it->second = "relisted";
    if (method == "tools/call") {
      if (it->second == "relisted") {
        it->second = "relisted-before-call";
      } else {
        it->second = "called-without-relist";
        detail = "; in session " + std::to_string(line.session) + ", " + describe_request(line) + " came first";
        unlisted_call = &line;
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
  return {result, std::to_string(by_session.size()) + " later session(s) of " + check.server + detail,
          result == "called-without-relist" ? unlisted_call : nullptr};
}

Observation judge_relist(const Relist& check, const RunRecord& record) {
  if (check.new_session) return judge_new_sessions(check, record);
  if (check.ttl_expiry) return judge_ttl_expiry(check, record);
  std::size_t changes = 0, unknowable = 0;
  std::string result = "not-reached", detail;
  const WireLine* unlisted_call = nullptr;
  const double end = last_wire_time(record);
  for (std::size_t i = 0; i < record.wire.size(); ++i) {
    const auto& notice = record.wire[i];
    if (notice.server != check.server || !is_catalog_change(notice)) continue;
    ++changes;
    const double known = catalog_change_known_at(record, i);
    if (known > end) {  // nothing the client did in the run answers to it
      ++unknowable;
      continue;
    }
    std::string here = "not-reached";
    for (std::size_t j = i + 1; j < record.wire.size(); ++j) {
      const auto& line = record.wire[j];
      if (line.server != check.server || line.connection != notice.connection || !record.is_request_in(line)) continue;
      const std::string method = method_of(line);
      // A call under a listing still fresh when the change went unannounced: the client could not know.
      if (method == "tools/call" && line.time < known) continue;
      if (method == "tools/list") {
        here = "relisted";
        for (std::size_t k = j + 1; k < record.wire.size(); ++k)
          if (record.wire[k].connection == notice.connection && record.is_request_in(record.wire[k]) &&
              method_of(record.wire[k]) == "tools/call")
            here = "relisted-before-call";
        break;
      }
      if (method == "tools/call") {
        here = "called-without-relist";
        detail = "; " + describe_request(line) + " came first";
        if (!unlisted_call) unlisted_call = &line;
        break;
      }
    }
    // The worst over every list_changed: calling without a relist, then nothing, then the rest.
    auto rank = [](const std::string& o) {
      return o == "called-without-relist" ? 3 : o == "not-reached" ? 2 : o == "relisted" ? 1 : 0;
    };
    if (changes == unknowable + 1 || rank(here) > rank(result)) result = here;
  }
  if (changes > 0 && unknowable == changes)
    return {kUnannouncedWhileFresh, std::to_string(changes) + " catalog change(s) of " + check.server +
                                        ", each unannounced while the client's listing was fresh"};
  return {result,
          std::to_string(changes) + " catalog change(s) of " + check.server +
              " (tools/list_changed, or unannounced in the stateless era)" + detail,
          result == "called-without-relist" ? unlisted_call : nullptr};
}

}  // namespace

CheckKind relist_kind() {
  return make_check_kind(
      "relist",
      {{"relisted-before-call",
        "after tools/list_changed (or in a new session, or once its listing's ttlMs ran out) the client listed tools "
        "again before its next call"},
       {"relisted",
        "after tools/list_changed (or in a new session, or once its listing's ttlMs ran out) the client listed tools "
        "again and made no call"},
       {"called-without-relist",
        "after tools/list_changed (or in a new session, or once its listing's ttlMs ran out) the client called a tool "
        "without listing again"},
       {"not-reached",
        "tools/list_changed was never sent (nor did an unannounced change outlive the listing the client held), "
        "no new session began or no listing ran out, or nothing followed",
        true},
       {kUnannouncedWhileFresh, kUnannouncedWhileFreshDescription, false, true}},
      read_relist, judge_relist);
}

}  // namespace mcp_hints::conformance
