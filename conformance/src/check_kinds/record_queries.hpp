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
// A change of the server's catalog: its tools/list_changed (legacy era), or the event the mock
// records when the catalog changes in the stateless era, where no notification is sent.
bool is_catalog_change(const WireLine& line);
// The time of the server's first catalog change, or kNever.
double first_list_changed(const RunRecord& record, const std::string& server);
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
