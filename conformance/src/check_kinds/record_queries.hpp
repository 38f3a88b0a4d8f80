#pragma once
// Questions the check kinds ask of a run record: which lines are calls of a tool or notifications,
// which annotations a result set and a request carried, which events concern a tool.
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/run_record.hpp"

namespace mcp_hints::conformance {

constexpr double kNever = std::numeric_limits<double>::infinity();

// The value at path inside value, or nullptr.
const nlohmann::json* member(const nlohmann::json& value, std::initializer_list<const char*> path);
std::string text_or(const nlohmann::json& object, const char* key, const std::string& fallback);
// The method of a request or notification; empty for anything else.
std::string method_of(const WireLine& line);

bool is_call_of(const RunRecord& record, const WireLine& line, const std::string& server, const std::string& tool);
// A notification the server sent.
bool is_out_notification(const WireLine& line, const std::string& method);
// A change of the server's catalog: its tools/list_changed on the session's channel, or the events
// the mock records when the catalog changes in the stateless era (announced on subscriptions, or
// not at all).
bool is_catalog_change(const WireLine& line);
// A listing is fresh for ttlMs "after receiving the response" (caching, 2026-07-28); the record
// times the answer when it was sent, so the client gets this much more for the way back.
constexpr double kTtlSlackSeconds = 0.1;
// When the client could know of the catalog change at record.wire[index]: at once when the server
// told it (tools/list_changed, on the session's channel or on a subscriptions/listen stream the
// client opened); a change the stateless era left unannounced (no subscription asked for it) only
// once the listing the client held then ran out: until its ttlMs did, the client may rely on it.
double catalog_change_known_at(const RunRecord& record, std::size_t index);
// The first time the client could know of a change of the server's catalog, or kNever.
double first_catalog_change_known(const RunRecord& record, const std::string& server);
// The time of the record's last wire line (-kNever for none): a change known only later was one
// the client could not know of in the run.
double last_wire_time(const RunRecord& record);
// The outcome of a check after a catalog change that the client could not know of in the run, and
// its description: moot (the client may rely on a fresh listing; listening is its choice).
inline constexpr const char* kUnannouncedWhileFresh = "unannounced-while-fresh";
inline constexpr const char* kUnannouncedWhileFreshDescription =
    "the catalog changed unannounced (the stateless era: no subscriptions/listen stream of the client's asked for "
    "it) while the client's listing was fresh (its ttlMs): the client could not know";
// "tools/call rm to main"
std::string describe_request(const WireLine& line);
// An event about the tool on the server (an event naming no server concerns every server).
bool event_is_for(const ClientEvent& event, const std::string& server, const std::string& tool);
// The client's first refusal of the tool on its own (a blocked event), or null.
const ClientEvent* first_block_of(const RunRecord& record, const std::string& server, const std::string& tool);
std::string ordinal(std::size_t n);  // "1st", "2nd" ...

// #711 annotations: what a result set and what a request carried.
const nlohmann::json* result_annotation(const WireLine& line, const std::string& key);
const nlohmann::json* request_annotation(const WireLine& line, const std::string& key);

// What a request must carry after the results seen so far, for one annotation.
struct AnnotationExpectation {
  int rank = -1;                  // the most cautious claim seen, on the facet's scale (crosswalk)
  std::set<std::string> sources;  // attribution (a set)
  bool set = false;               // some result set it

  void see(const std::string& key, const nlohmann::json& value);
  // "" when the request carries it; "dropped" or "weakened" otherwise.
  std::string judge(const std::string& key, const nlohmann::json* carried) const;
};

}  // namespace mcp_hints::conformance
