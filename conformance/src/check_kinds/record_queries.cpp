#include "record_queries.hpp"

#include <algorithm>
#include <vector>

#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

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

std::string text_or(const json& object, const char* key, const std::string& fallback) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : fallback;
}

std::string method_of(const WireLine& line) { return text_or(line.message, "method", ""); }

bool is_call_of(const RunRecord& record, const WireLine& line, const std::string& server, const std::string& tool) {
  if (line.server != server || !record.is_request_in(line) || method_of(line) != "tools/call") return false;
  const json* name = member(line.message, {"params", "name"});
  return name && *name == tool;
}

bool is_out_notification(const WireLine& line, const std::string& method) {
  return line.direction == "out" && line.message.is_object() && !line.message.contains("id") &&
         line.message.value("method", json()) == method;
}

bool is_catalog_change(const WireLine& line) {
  // A delivery on a subscriptions/listen stream (tagged with its subscriptionId) is not a change of
  // its own: the change is the event recorded when it happened, and a stream may deliver late.
  if (is_out_notification(line, "notifications/tools/list_changed"))
    return !member(line.message, {"params", "_meta", kSubscriptionIdMeta});
  return line.event == mock::kCatalogChangedEvent || line.event == mock::kCatalogAnnouncedEvent;
}

double catalog_change_known_at(const RunRecord& record, std::size_t index) {
  const WireLine& change = record.wire[index];
  if (change.event != mock::kCatalogChangedEvent) return change.time;
  double known = change.time;
  // The latest listing of the connection answered before the change is the one the client held.
  for (std::size_t i = 0; i < index; ++i) {
    const WireLine& line = record.wire[i];
    if (line.server != change.server || line.connection != change.connection || !record.is_request_in(line) ||
        method_of(line) != "tools/list")
      continue;
    const WireLine* answer = record.answer_to(line);
    if (!answer || answer->time > change.time) continue;
    const json* ttl = member(answer->message, {"result", "ttlMs"});
    // ttlMs 0 (or none) is stale at once: the change is the client's to find at its next call.
    known = ttl && ttl->is_number() && ttl->get<double>() > 0
                ? answer->time + ttl->get<double>() / 1000 + kTtlSlackSeconds
                : change.time;
  }
  return std::max(known, change.time);
}

double last_wire_time(const RunRecord& record) {
  double last = -kNever;
  for (const auto& line : record.wire) last = std::max(last, line.time);
  return last;
}

double first_catalog_change_known(const RunRecord& record, const std::string& server) {
  double first = kNever;
  for (std::size_t i = 0; i < record.wire.size(); ++i)
    if (record.wire[i].server == server && is_catalog_change(record.wire[i]))
      first = std::min(first, catalog_change_known_at(record, i));
  return first;
}

std::string describe_request(const WireLine& line) {
  std::string what = line.message.value("method", std::string("?"));
  if (const json* name = member(line.message, {"params", "name"}); name && name->is_string())
    what.append(" ").append(name->get<std::string>());
  return what + " to " + line.server;
}

bool event_is_for(const ClientEvent& event, const std::string& server, const std::string& tool) {
  if (!event.data.contains("tool") || event.data["tool"] != tool) return false;
  return !event.data.contains("server") || !event.data["server"].is_string() || event.data["server"] == server;
}

std::string ordinal(std::size_t n) {
  static const char* suffixes[] = {"th", "st", "nd", "rd"};
  const std::size_t mod = n % 100;
  return std::to_string(n) + ((mod >= 11 && mod <= 13) || n % 10 > 3 ? "th" : suffixes[n % 10]);
}

const json* result_annotation(const WireLine& line, const std::string& key) {
  if (line.direction != "out") return nullptr;
  return member(line.message, {"result", "_meta", "annotations", key.c_str()});
}

const json* request_annotation(const WireLine& line, const std::string& key) {
  return member(line.message, {"params", "_meta", "annotations", key.c_str()});
}

// Read with the crosswalk: a set (attribution) must be carried whole, any other annotation at the
// level its results claimed or a more cautious one ("same or higher level"); a value that claims
// nothing (false) or that the crosswalk does not know sets nothing.
void AnnotationExpectation::see(const std::string& key, const json& value) {
  const auto& vocabulary = Vocabulary::builtin();
  const Field* field = annotation_field(vocabulary, key);
  if (!field) return;
  if (field->set_valued) {
    if (!value.is_array()) return;
    for (const auto& a : value)
      if (a.is_string()) sources.insert(a.get<std::string>());
    if (sources.empty()) return;
  } else {
    const int r = claim_rank(vocabulary, *field, value);
    if (r < 0) return;
    rank = std::max(rank, r);
  }
  set = true;
}

std::string AnnotationExpectation::judge(const std::string& key, const json* carried) const {
  if (!carried) return "dropped";
  const auto& vocabulary = Vocabulary::builtin();
  const Field* field = annotation_field(vocabulary, key);
  if (field && field->set_valued) {
    if (!carried->is_array()) return "weakened";
    std::set<std::string> have;
    for (const auto& a : *carried)
      if (a.is_string()) have.insert(a.get<std::string>());
    return std::includes(have.begin(), have.end(), sources.begin(), sources.end()) ? "" : "weakened";
  }
  return field && claim_rank(vocabulary, *field, *carried) >= rank ? "" : "weakened";
}

const ClientEvent* first_block_of(const RunRecord& record, const std::string& server, const std::string& tool) {
  // A refusal that names no server is this server's only while no server was called with the tool:
  // a client that called it elsewhere and refused it there has not refused it here.
  const auto called_anywhere = [&] {
    return std::any_of(record.wire.begin(), record.wire.end(),
                       [&](const WireLine& line) { return is_call_of(record, line, line.server, tool); });
  };
  for (const auto& e : record.events) {
    if (e.type != "blocked" || !event_is_for(e, server, tool)) continue;
    const json* named = member(e.data, {"server"});
    if (named && named->is_string()) return &e;
    if (!called_anywhere()) return &e;
  }
  return nullptr;
}

}  // namespace mcp_hints::conformance
