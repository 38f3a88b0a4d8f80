#include "mcp_hints/conformance/coverage.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"
#include "semantics.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

using RowKey = std::tuple<std::string, std::string, std::string, std::string>;  // semantic, key, value, role

struct Table {
  std::vector<CoverageRow> rows;
  std::map<RowKey, std::size_t> index;

  void define(const std::string& semantic, const std::string& key, const std::string& value, const std::string& role) {
    if (index.emplace(RowKey{semantic, key, value, role}, rows.size()).second)
      rows.push_back({semantic, key, value, role, {}});
  }
  void exercise(const RowKey& key, const std::string& by) {
    if (auto it = index.find(key); it != index.end()) rows[it->second].exercised_by.push_back(by);
  }
};

bool asks(const std::vector<semantics::FieldValue>& values, int trust) {
  return std::any_of(values.begin(), values.end(), [&](const semantics::FieldValue& fv) {
    return std::any_of(fv.asserts.begin(), fv.asserts.end(),
                       [&](const FacetValue& v) { return semantics::asks_confirmation(v, trust); });
  });
}

bool asks_at(const FacetValue& v, int trust) { return semantics::asks_confirmation(v, trust); }

bool taints(const semantics::FieldValue& fv) {
  return std::any_of(fv.asserts.begin(), fv.asserts.end(), semantics::makes_sensitive);
}

// The dimensions beyond values: shapes of the catalogue, of a value, of failures and of scope that
// clients get wrong though they read every value right.
const char* const kLaterPage = "new hints on a later page of a relist";
const char* const kSharedName = "one tool name on two servers, with different hints";
const char* const kWithdrawn = "a relist that withdraws a hint (its default applies)";
const char* const kSeveralMembers = "several members, the deciding one not first";
const char* const kErrorResult = "set by a result with isError true";
const char* const kReconnection = "carried on the reconnection after the server dropped the connection";
const char* const kTimedOut = "a confirmed call that timed out (sending it again is a new call)";
const char* const kAcrossListChanged = "set with tools/list_changed, carried on the relist";
const char* const kOpenWorldDefault = "openWorldHint absent on a writer (open world by default)";
const char* const kDefaults = "defaults";
const char* const kOtherServer = "returned by one server, sent out through another";
const char* const kEscalatedElsewhere = "reported by one server, before another server's write";
const char* const kBlockWeaker = "a content block that claims less than its result";
const char* const kPrecedence = "precedence";
const char* const kSeveralInputs = "several input requests in one input_required result, each answered apart";
const char* const kInputRetry = "carried on the retry after input_required";
const char* const kUsedWithinTtl = "a listing used again within its ttlMs, then called after it";
const char* const kStateless = "stateless era";
const char* const kCatalogue = "catalogue shape";
const char* const kFailure = "failure events";
const char* const kScope = "scope";

// A set-valued field whose value in `tool` lists several members and decides (by `decides`) only
// through a member that is not the first: a client reading the first member alone misses it.
template <class Decides>
std::vector<const Field*> decided_behind_first(const json& tool, const std::vector<semantics::FieldValue>& values,
                                               Decides decides) {
  std::vector<const Field*> fields;
  for (const auto& fv : values) {
    if (!fv.field->set_valued || std::find(fields.begin(), fields.end(), fv.field) != fields.end()) continue;
    const json* written = find_member(tool, fv.field->tokens);
    if (!written || !written->is_array() || written->size() < 2) continue;
    std::vector<bool> deciding;
    for (const auto& member : *written) {
      const auto asserts = fv.field->facet_values(member);
      deciding.push_back(asserts && std::any_of(asserts->begin(), asserts->end(), decides));
    }
    if (!deciding.front() && std::find(deciding.begin() + 1, deciding.end(), true) != deciding.end())
      fields.push_back(fv.field);
  }
  return fields;
}

// A hint `before` has that `after` leaves out (in annotations or _meta).
bool withdraws_a_hint(const json& before, const json& after) {
  for (const char* where : {"annotations", "_meta"}) {
    const json was = before.value(where, json::object()), is = after.value(where, json::object());
    if (!was.is_object()) continue;
    for (const auto& [key, value] : was.items())
      if (!is.is_object() || !is.contains(key)) return true;
  }
  return false;
}

// The most input requests one input_required step of the scenario asks at once (of `tool`; empty:
// of any tool).
std::size_t most_input_requests(const mock::Scenario& scenario, const std::string& tool = {}) {
  std::size_t most = 0;
  for (const auto& [name, server] : scenario.servers)
    for (const auto& [called, script] : server.scripts)
      for (const auto& step : script)
        if (step.kind == mock::Step::Kind::input_required && (tool.empty() || called == tool))
          most = std::max(most, step.payload.value("inputRequests", json::object()).size());
  return most;
}

// Whether a result of `tool` on `server` claims sensitive (the 2026-06 extension) and one of its
// content blocks claims less: a client must keep the stronger claim.
bool block_claims_less(const mock::Scenario& scenario, const std::string& server, const std::string& tool) {
  const mock::ServerSpec* spec = semantics::scenario_server(scenario, server);
  if (!spec || !spec->scripts.count(tool)) return false;
  const std::vector<std::string> sensitive = {"_meta", std::string(kTrustAnnotationsExtension), "sensitive"};
  for (const auto& step : spec->scripts.at(tool)) {
    const json* claim = find_member(step.payload, sensitive);
    if (!claim || *claim != true || !step.payload.contains("content") || !step.payload["content"].is_array()) continue;
    for (const auto& block : step.payload["content"])
      if (const json* less = find_member(block, sensitive); less && *less == false) return true;
  }
  return false;
}

// The steps whose result sets the #711 annotation `key`: of every server and tool, or of `tool`
// on `server` when named.
std::vector<const mock::Step*> steps_setting(const mock::Scenario& scenario, const std::string& key,
                                             const std::string& server = {}, const std::string& tool = {}) {
  std::vector<const mock::Step*> steps;
  const mock::ServerSpec* named = tool.empty() ? nullptr : semantics::scenario_server(scenario, server);
  for (const auto& [name, spec] : scenario.servers)
    for (const auto& [called, script] : spec.scripts)
      for (const auto& step : script)
        if ((tool.empty() || (called == tool && named == &spec)) && step.kind == mock::Step::Kind::result &&
            step.payload.is_object() &&
            step.payload.value("_meta", json::object()).value("annotations", json::object()).contains(key))
          steps.push_back(&step);
  return steps;
}

// Whether the first answer to `tool` on `server` comes later than the client is asked to wait.
bool first_answer_outlasts_timeout(const mock::Scenario& scenario, const std::string& server, const std::string& tool) {
  const json* timeout = find_member(scenario.document, {"client", "requestTimeoutMs"});
  const mock::ServerSpec* spec = semantics::scenario_server(scenario, server);
  if (!timeout || !timeout->is_number_integer() || !spec || !spec->scripts.count(tool) ||
      spec->scripts.at(tool).empty())
    return false;
  return spec->scripts.at(tool).front().delay.count() > timeout->get<long long>();
}

// The verdict a check gives a call made without any prompt: "pass" means no prompt is owed.
std::string unprompted_verdict(const json& check) {
  const json traces = check.value("traces", json::object());
  return traces.value("called-unprompted", std::string("fail"));
}

}  // namespace

std::vector<CoverageRow> coverage(const std::vector<mock::Scenario>& scenarios) {
  const Vocabulary& vocabulary = Vocabulary::builtin();
  Table table;
  const int trust = semantics::kDefaultTrustLevel;
  for (const auto& fv : semantics::field_values(vocabulary, semantics::confirmation_facets()))
    table.define("confirmation", semantics::field_name(*fv.field), fv.value.dump(),
                 asks({fv}, trust) ? "asks" : "does not ask");
  table.define("absent hints", "spec readOnlyHint, destructiveHint", "both absent", "asks");
  table.define("absent hints", "spec destructiveHint", "absent, readOnlyHint false", "asks");
  table.define("absent hints", "spec readOnlyHint", "absent, destructiveHint false", "does not ask");
  for (const auto& fv : semantics::field_values(vocabulary, semantics::sensitivity_facets()))
    table.define("sensitive data", semantics::field_name(*fv.field), fv.value.dump(),
                 taints(fv) ? "taints" : "does not taint");
  for (const auto& field : vocabulary.fields())
    if (field.is_message_field && field.vocabulary == "trust-annotations" &&
        field.pointer_text.rfind("/_meta/annotations/", 0) == 0) {
      table.define("propagation", "trust-annotations " + field.key, "set by a result", "carried");
      table.define("propagation", "trust-annotations " + field.key, "set by a result", "cleared by a new session");
    }
  table.define("confirmation", kCatalogue, kLaterPage, "asks");
  table.define("confirmation", kCatalogue, kSharedName, "asks");
  table.define("confirmation", kCatalogue, kWithdrawn, "asks");
  // Every set-valued field with a member that decides, with a quiet member before it.
  for (const auto& fv : semantics::field_values(vocabulary, semantics::confirmation_facets()))
    if (fv.field->set_valued && asks({fv}, trust))
      table.define("confirmation", semantics::field_name(*fv.field), kSeveralMembers, "asks");
  for (const auto& fv : semantics::field_values(vocabulary, semantics::sensitivity_facets()))
    if (fv.field->set_valued && taints(fv))
      table.define("sensitive data", semantics::field_name(*fv.field), kSeveralMembers, "taints");
  table.define("sensitive data", kDefaults, kOpenWorldDefault, "asks");
  table.define("sensitive data", kScope, kOtherServer, "asks");
  table.define("malicious activity", kScope, kEscalatedElsewhere, "asks");
  table.define("sensitive data", kPrecedence, kBlockWeaker, "asks");
  // Every level of a levelled annotation, set alone: a client that carries only the upper levels
  // is caught where the lowest is the only one seen.
  for (const auto& field : vocabulary.fields())
    if (field.is_message_field && field.vocabulary == "trust-annotations" && field.propagation &&
        field.propagation->rule == "same-or-higher" && field.pointer_text.rfind("/_meta/annotations/", 0) == 0)
      for (const auto& [level, asserts] : field.map)
        if (level != "true" && level != "false")
          table.define("propagation", "trust-annotations " + field.key, "set at " + json(level).dump() + " alone",
                       "carried");
  table.define("propagation", kFailure, kErrorResult, "carried");
  table.define("propagation", kFailure, kReconnection, "carried");
  table.define("confirmation", kFailure, kTimedOut, "asks");
  table.define("confirmation", kStateless, kSeveralInputs, "asks");
  table.define("confirmation", kStateless, kUsedWithinTtl, "asks");
  table.define("propagation", kStateless, kInputRetry, "carried");
  table.define("propagation", kScope, kAcrossListChanged, "carried");

  for (const auto& scenario : scenarios) {
    const json& doc = scenario.document;
    const int scenario_trust = semantics::scenario_trust_level(scenario);
    for (const auto& check : doc.value("expect", json::array())) {
      const std::string name = scenario.id + ":" + check.value("id", "");
      const std::string kind = check.value("kind", "");
      const std::string key = check.value("key", "");
      if (kind == "clean-start") {
        table.exercise({"propagation", "trust-annotations " + key, "set by a result", "cleared by a new session"},
                       name);
        continue;
      }
      if (kind == "propagation") {
        table.exercise({"propagation", "trust-annotations " + key, "set by a result", "carried"}, name);
        std::set<std::string> levels;
        for (const mock::Step* step : steps_setting(scenario, key))
          levels.insert(step->payload["_meta"]["annotations"][key].dump());
        if (most_input_requests(scenario) > 0)
          table.exercise({"propagation", kStateless, kInputRetry, "carried"}, name);
        if (check.value("after", "") == "reconnect")
          table.exercise({"propagation", kFailure, kReconnection, "carried"}, name);
        if (levels.size() == 1)
          table.exercise({"propagation", "trust-annotations " + key, "set at " + *levels.begin() + " alone", "carried"},
                         name);
        for (const mock::Step* step : steps_setting(scenario, key)) {
          if (step->payload.value("isError", false) == true)
            table.exercise({"propagation", kFailure, kErrorResult, "carried"}, name);
          if (step->list_changed) table.exercise({"propagation", kScope, kAcrossListChanged, "carried"}, name);
        }
        continue;
      }
      if (kind == "input-request" && most_input_requests(scenario, check.value("tool", "")) > 1)
        table.exercise({"confirmation", kStateless, kSeveralInputs, "asks"}, name);
      if (kind != "gate") continue;
      const std::string verdict = unprompted_verdict(check);
      const bool demands = verdict != "pass" && verdict != "info";
      const std::string server = check.value("server", "");
      if (check.contains("after")) {
        // After tools/list_changed: the announced catalogue decides, against the one it replaced.
        const json* before = semantics::scenario_tool(scenario, server, check.value("tool", ""));
        const json* after = semantics::checked_tool(scenario, check);
        std::size_t step = 0;
        const auto* announced = semantics::announced_catalog(scenario, server, &step);
        if (!before || !after || !demands || !semantics::call_needs(*after, vocabulary, scenario_trust).confirmation)
          continue;
        const mock::ServerSpec& spec = *semantics::scenario_server(scenario, server);  // it lists `before`
        const auto index = static_cast<std::size_t>(after - announced->data());        // its place in the catalogue
        if (spec.page_size && index >= spec.page_size)
          table.exercise({"confirmation", kCatalogue, kLaterPage, "asks"}, name);
        // The change comes with a later answer than the first: the listing was used before it.
        if (spec.ttl_ms.value_or(0) > 0 && step > 0)
          table.exercise({"confirmation", kStateless, kUsedWithinTtl, "asks"}, name);
        if (!semantics::call_needs(*before, vocabulary, scenario_trust).confirmation &&
            withdraws_a_hint(*before, *after))
          table.exercise({"confirmation", kCatalogue, kWithdrawn, "asks"}, name);
        continue;
      }
      const json* tool =
          semantics::scenario_tool(scenario, server, check.value("tool", ""), check.value("authorization", ""));
      if (!tool) continue;
      const auto values = semantics::asserted_values(*tool, vocabulary);
      if (!check.contains("requires")) {
        // Confirmation: the value alone decides whether the call needs a prompt.
        if (semantics::call_needs(*tool, vocabulary, scenario_trust).confirmation != demands) continue;
        if (demands) {
          if (first_answer_outlasts_timeout(scenario, server, check.value("tool", "")))
            table.exercise({"confirmation", kFailure, kTimedOut, "asks"}, name);
          for (const auto& [other, spec] : scenario.servers) {
            const json* namesake =
                other == server ? nullptr : semantics::scenario_tool(scenario, other, check.value("tool", ""));
            if (namesake && !semantics::call_needs(*namesake, vocabulary, scenario_trust).confirmation)
              table.exercise({"confirmation", kCatalogue, kSharedName, "asks"}, name);
          }
          const auto decides = [&](const FacetValue& v) { return asks_at(v, scenario_trust); };
          if (std::none_of(values.begin(), values.end(), [&](const semantics::FieldValue& fv) {
                return !fv.field->set_valued && asks({fv}, scenario_trust);
              }))
            for (const Field* field : decided_behind_first(*tool, values, decides))
              table.exercise({"confirmation", semantics::field_name(*field), kSeveralMembers, "asks"}, name);
        }
        const auto asking = std::count_if(values.begin(), values.end(),
                                          [&](const semantics::FieldValue& fv) { return asks({fv}, scenario_trust); });
        for (const auto& fv : values) {
          if (!semantics::value_touches(fv, semantics::confirmation_facets())) continue;
          const bool this_asks = asks({fv}, scenario_trust);
          if (demands && (!this_asks || asking != 1)) continue;
          // minTrustLevel rows are per value at the default trust level: judge others by distance.
          json value = fv.value;
          if (fv.asserts.size() == 1 && fv.asserts[0].facet == "min-trust" && value.is_number_integer())
            value = value.get<int>() - scenario_trust + trust;
          table.exercise(
              {"confirmation", semantics::field_name(*fv.field), value.dump(), demands ? "asks" : "does not ask"},
              name);
        }
        const json annotations = tool->value("annotations", json::object());
        const bool has_read_only = annotations.contains("readOnlyHint"),
                   has_destructive = annotations.contains("destructiveHint");
        const bool other_effect = std::any_of(values.begin(), values.end(), [](const semantics::FieldValue& fv) {
          return fv.field->vocabulary != "spec" && std::any_of(fv.asserts.begin(), fv.asserts.end(),
                                                               [](const FacetValue& v) { return v.facet == "effect"; });
        });
        if (!other_effect && !has_read_only && !has_destructive && demands && values.empty())
          table.exercise({"absent hints", "spec readOnlyHint, destructiveHint", "both absent", "asks"}, name);
        if (!other_effect && has_read_only && annotations["readOnlyHint"] == false && !has_destructive && demands &&
            asking == 0)
          table.exercise({"absent hints", "spec destructiveHint", "absent, readOnlyHint false", "asks"}, name);
        if (!other_effect && !has_read_only && has_destructive && annotations["destructiveHint"] == false && !demands)
          table.exercise({"absent hints", "spec readOnlyHint", "absent, destructiveHint false", "does not ask"}, name);
        continue;
      }
      // Sensitive data: the gated tool asks for nothing itself; the source's value decides.
      if (semantics::call_needs(*tool, vocabulary, scenario_trust).confirmation || !check["requires"].contains("tool"))
        continue;
      const json* source = semantics::scenario_tool(scenario, check["requires"].value("server", ""),
                                                    check["requires"]["tool"].get<std::string>());
      if (!source) continue;
      const auto sources = semantics::asserted_values(*source, vocabulary);
      const auto tainting = std::count_if(sources.begin(), sources.end(), taints);
      const std::string source_server = check["requires"].value("server", "");
      if (demands && !source_server.empty() && !server.empty() && source_server != server)
        table.exercise(steps_setting(scenario, "maliciousActivityHint", source_server,
                                     check["requires"]["tool"].get<std::string>())
                               .empty()
                           ? RowKey{"sensitive data", kScope, kOtherServer, "asks"}
                           : RowKey{"malicious activity", kScope, kEscalatedElsewhere, "asks"},
                       name);
      if (demands && block_claims_less(scenario, source_server, check["requires"]["tool"].get<std::string>()))
        table.exercise({"sensitive data", kPrecedence, kBlockWeaker, "asks"}, name);
      // Only the specification's default sends the sink's input outside.
      if (demands && !tool->value("annotations", json::object()).contains("openWorldHint") &&
          std::none_of(values.begin(), values.end(), [](const semantics::FieldValue& fv) {
            return std::any_of(fv.asserts.begin(), fv.asserts.end(), semantics::leaves);
          }))
        table.exercise({"sensitive data", kDefaults, kOpenWorldDefault, "asks"}, name);
      if (demands && std::none_of(sources.begin(), sources.end(),
                                  [](const semantics::FieldValue& fv) { return !fv.field->set_valued && taints(fv); }))
        for (const Field* field : decided_behind_first(*source, sources, semantics::makes_sensitive))
          table.exercise({"sensitive data", semantics::field_name(*field), kSeveralMembers, "taints"}, name);
      for (const auto& fv : sources) {
        if (!semantics::value_touches(fv, semantics::sensitivity_facets())) continue;
        if (demands ? !(taints(fv) && tainting == 1) : tainting != 0) continue;
        table.exercise({"sensitive data", semantics::field_name(*fv.field), fv.value.dump(),
                        demands ? "taints" : "does not taint"},
                       name);
      }
    }
  }
  return table.rows;
}

std::string coverage_text(const std::vector<CoverageRow>& rows) {
  std::string out;
  std::size_t covered = 0;
  for (const auto& row : rows) {
    if (!row.exercised_by.empty()) ++covered;
    std::string line = row.semantic + " | " + row.key + " " + row.value + " | " + row.role + " | ";
    line += row.exercised_by.empty()
                ? "NOT EXERCISED"
                : std::to_string(row.exercised_by.size()) + " check(s): " + shorten(join(row.exercised_by, ", "), 100);
    out += line + "\n";
  }
  return out + std::to_string(covered) + " of " + std::to_string(rows.size()) + " rows exercised\n";
}

std::string coverage_markdown(const std::vector<CoverageRow>& rows) {
  std::string out = "| semantic | key | value | role | exercised by |\n|---|---|---|---|---|\n";
  for (const auto& row : rows)
    out += "| " + row.semantic + " | " + markdown_cell(row.key) + " | " + markdown_cell(row.value) + " | " + row.role +
           " | " +
           (row.exercised_by.empty()
                ? std::string("**none**")
                : std::to_string(row.exercised_by.size()) + ": `" + markdown_cell(row.exercised_by.front()) + "`" +
                      (row.exercised_by.size() > 1 ? " …" : "")) +
           " |\n";
  return out;
}

}  // namespace mcp_hints::conformance
