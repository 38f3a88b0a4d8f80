#include "record_queries.hpp"

#include <algorithm>
#include <vector>

#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

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
  return is_out_notification(line, "notifications/tools/list_changed") || line.event == mock::kCatalogChangedEvent;
}

double first_list_changed(const RunRecord& record, const std::string& server) {
  for (const auto& line : record.wire)
    if (line.server == server && is_catalog_change(line)) return line.time;
  return kNever;
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
