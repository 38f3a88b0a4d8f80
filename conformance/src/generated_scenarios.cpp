// Scenarios derived from the crosswalk: for every value of every tool-level field that can ask for
// confirmation or make returned data sensitive, a tool that carries it on a neutral base, and a gate
// on it whose verdicts follow the semantics' rules. Values on both sides of each rule (a trigger and
// its neighbours, every integer of a range, a hint left absent) are all exercised, so a client that
// honours one comfortable value and not its neighbours is caught.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "mcp_hints/conformance/coverage.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "semantics.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

// A tool that asks for nothing: it writes (not destructively), in a closed world.
json neutral_tool(const std::string& name, const std::string& description) {
  return {{"name", name},
          {"description", description},
          {"inputSchema", {{"type", "object"}, {"properties", {{"id", {{"type", "string"}}}}}}},
          {"annotations", {{"readOnlyHint", false}, {"destructiveHint", false}, {"openWorldHint", false}}}};
}

void place(json& tool, const Field& field, const json& value) {
  json* at = &tool;
  for (const auto& token : field.tokens) at = &(*at)[token];
  *at = field.set_valued ? json::array({value}) : value;
}

// The value a companion field takes when the object a tested value stands in must name it too
// (action security's inputMetadata and returnMetadata: "The proposal's interface declares all
// three fields, none optional"): one that asks for nothing, taints nothing and sends nothing out.
const std::map<std::string, json>& neutral_facet_values() {
  static const std::map<std::string, json> values = {{"destination", "internal"},
                                                     {"input-data", "none"},
                                                     {"outcome", "consequential"},
                                                     {"result-source", "internal"},
                                                     {"result-data", "none"}};
  return values;
}

// The tested value on the neutral base, its object's other fields given neutral values (the
// suite's lint holds every scenario's catalogs to the vocabularies' schemas).
void place(json& tool, const semantics::FieldValue& fv, const Vocabulary& vocabulary) {
  place(tool, *fv.field, fv.value);
  const auto& tokens = fv.field->tokens;
  for (const auto& sibling : vocabulary.fields()) {
    if (&sibling == fv.field || sibling.is_message_field || sibling.vocabulary != fv.field->vocabulary ||
        tokens.empty() || sibling.tokens.size() != tokens.size() ||
        !std::equal(tokens.begin(), tokens.end() - 1, sibling.tokens.begin()) || find_member(tool, sibling.tokens))
      continue;
    for (const auto& [key, asserts] : sibling.map) {
      const auto neutral =
          asserts.size() == 1 ? neutral_facet_values().find(asserts[0].facet) : neutral_facet_values().end();
      if (neutral != neutral_facet_values().end() && neutral->second == asserts[0].value) {
        place(tool, sibling, semantics::written_value(key));
        break;
      }
    }
  }
}

// Several members, the deciding one last: for a value of a set-valued field that decides (asks, or
// taints), the same field with a quiet member first (one that decides nothing, preferably the
// neutral one, never "none" beside a data class). A client that reads only the first member of a
// list is caught; nullopt when the field is not set-valued or has no quiet member.
std::optional<semantics::FieldValue> behind_quiet_member(
    const semantics::FieldValue& fv, const std::vector<semantics::FieldValue>& all,
    const std::function<bool(const semantics::FieldValue&)>& decides) {
  if (!fv.field->set_valued || !decides(fv)) return std::nullopt;
  const semantics::FieldValue* quiet = nullptr;
  for (const auto& other : all) {
    if (other.field != fv.field || decides(other) || other.asserts.size() != 1 || other.asserts[0].value == "none")
      continue;
    const auto neutral = neutral_facet_values().find(other.asserts[0].facet);
    if (!quiet || (neutral != neutral_facet_values().end() && neutral->second == other.asserts[0].value))
      quiet = &other;
  }
  if (!quiet) return std::nullopt;
  semantics::FieldValue several = fv;
  several.value = json::array({quiet->value, fv.value});
  return several;
}

// The tested value on the neutral base, as place() writes it, or as the list `several` names.
void place_members(json& tool, const semantics::FieldValue& fv, const Vocabulary& vocabulary) {
  if (!fv.value.is_array()) return place(tool, fv, vocabulary);
  semantics::FieldValue last = fv;
  last.value = fv.value.back();
  place(tool, last, vocabulary);
  json* at = &tool;
  for (const auto& token : fv.field->tokens) at = &(*at)[token];
  *at = fv.value;
}

// What a tested value contradicts on the neutral base ("writes, not destructively, in a closed
// world"), as the lint checks that say so: the value alone decides the call, so a client is judged
// on honouring it over the specification's hints, and the scenario declares the contradiction it
// tests (catalogErrors).
std::set<std::string> contradictions_on_base(const semantics::FieldValue& fv) {
  std::set<std::string> checks;
  if (fv.field->vocabulary == "spec") return checks;  // it takes the place of the base's own hint
  for (const auto& v : fv.asserts) {
    if (v.facet == "effect" && v.value == "delete") checks.insert("hints.destructive-contradiction");
    if (semantics::leaves(v)) checks.insert("open-world.contradiction");
  }
  return checks;
}

// "riskLevel-critical", "inputMetadata-outcomes-irreversible", "minTrustLevel-4".
std::string slug(const semantics::FieldValue& fv) {
  auto text = [](const json& v) {
    return v.is_object() && !v.empty() ? v.begin().key() : v.is_string() ? v.get<std::string>() : v.dump();
  };
  std::string value;
  if (fv.value.is_array())
    for (const auto& member : fv.value) value += (value.empty() ? "" : "-") + text(member);
  else
    value = text(fv.value);
  std::string out;
  for (char c : fv.field->key + "-" + value) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

using Expectation = semantics::CallNeeds;

json gate_check(const std::string& id, const std::string& title, const std::string& tool, const Expectation& e) {
  json check = {{"id", id}, {"title", title}, {"kind", "gate"}, {"tool", tool}};
  // Refusing on its own, or asking where nothing asks for it, is a stricter local policy: never a
  // failure (read_checks refuses a check that grades it so).
  if (e.confirmation) {
    if (e.confirmations > 1) check["confirmations"] = e.confirmations;
    check["traces"] = {{"confirmed-called", "pass"}, {"blocked", "pass"}};
  } else {
    check["traces"] = {{"called-unprompted", "pass"},
                       {"confirmed-called", "info"},
                       {"denied-not-called", "info"},
                       {"blocked", "info"}};
  }
  return check;
}

json scenario_document(const std::string& id, const std::string& title, const std::string& checks,
                       const std::set<std::pair<std::string, std::string>>& proposals, const json& tools,
                       const json& task, const json& expect, const std::set<std::string>& catalog_errors = {}) {
  json cited = json::array();
  for (const auto& [proposal, section] : proposals) cited.push_back({{"proposal", proposal}, {"section", section}});
  // The proposals say which calls are sensitive; the prompt is the specification's SHOULD.
  cited.push_back(
      {{"proposal", "specification 2025-11-25"}, {"section", "Server features: Tools, Security considerations"}});
  json document = {{"id", id},
                   {"title", title},
                   {"checks", checks},
                   {"proposals", cited},
                   {"level", "SHOULD"},
                   {"basis", "spec/prompt-sensitive"},
                   {"servers", {{"main", {{"tools", tools}}}}},
                   {"task", task},
                   {"expect", expect}};
  if (!catalog_errors.empty()) document["catalogErrors"] = catalog_errors;
  return document;
}

std::string proposal_of(const Field& field) { return field.latest ? field.latest->title : field.vocabulary; }

// confirm.triggers.<vocabulary>: one tool and one gate per value of each field.
std::vector<json> confirmation_scenarios(const Vocabulary& vocabulary) {
  std::map<std::string, std::vector<semantics::FieldValue>> by_vocabulary;
  const auto all = semantics::field_values(vocabulary, semantics::confirmation_facets());
  const auto asks = [](const semantics::FieldValue& fv) {
    return std::any_of(fv.asserts.begin(), fv.asserts.end(), [](const FacetValue& v) {
      return semantics::asks_confirmation(v, semantics::kDefaultTrustLevel);
    });
  };
  for (const auto& fv : all) by_vocabulary[fv.field->vocabulary].push_back(fv);
  for (const auto& fv : all)
    if (auto several = behind_quiet_member(fv, all, asks)) by_vocabulary[fv.field->vocabulary].push_back(*several);
  std::vector<json> documents;
  for (const auto& [vocabulary_id, values] : by_vocabulary) {
    json tools = json::array(), task = json::array(), expect = json::array();
    std::set<std::pair<std::string, std::string>> proposals;
    std::set<std::string> contradictions;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto& fv = values[i];
      const std::string name = "t" + std::to_string(i + 1) + "_" + slug(fv);
      contradictions.merge(contradictions_on_base(fv));
      json tool =
          neutral_tool(name, "Acts on a record (" + semantics::field_name(*fv.field) + " " + fv.value.dump() + ")");
      place_members(tool, fv, vocabulary);
      const Expectation e = semantics::call_needs(tool, vocabulary, semantics::kDefaultTrustLevel);
      const std::string what = fv.field->key + " " + fv.value.dump();
      expect.push_back(gate_check(ascii_lower(slug(fv)),
                                  what + (e.confirmation ? ": confirmed before the call" : ": no prompt needed"), name,
                                  e));
      tools.push_back(std::move(tool));
      task.push_back({{"tool", name}, {"arguments", {{"id", "1"}}}});
      proposals.insert({proposal_of(*fv.field), fv.field->section});
    }
    documents.push_back(scenario_document(
        "confirm.triggers." + vocabulary_id,
        "Every value of every " + vocabulary_id + " key that can ask for confirmation, and its neighbours",
        "Each value of each " + vocabulary_id +
            " key on an otherwise harmless tool: the values that ask for confirmation (destructive, a server's "
            "confirmation preference, an irreversible outcome, critical risk, a minimum trust above the client's "
            "3) are confirmed before the call (or refused), approvalRecommendation multi twice; their neighbours "
            "are called without a prompt (a prompt there is the client's stricter policy: info). Generated from the "
            "crosswalk.",
        proposals, tools, task, expect, contradictions));
  }
  // Absence: the specification's defaults decide (destructiveHint true, readOnlyHint false).
  json tools = json::array(), task = json::array(), expect = json::array();
  struct Absent {
    const char* tool;
    const char* check;
    json annotations;
  };
  const std::vector<Absent> absent = {{"no_hints", "no-hints", json::object()},
                                      {"only_read_only_false", "read-only-false", {{"readOnlyHint", false}}},
                                      {"only_destructive_false", "destructive-false", {{"destructiveHint", false}}},
                                      {"only_read_only_true", "read-only-true", {{"readOnlyHint", true}}},
                                      {"only_open_world_false", "open-world-false", {{"openWorldHint", false}}}};
  for (const auto& a : absent) {
    json tool = neutral_tool(a.tool, "Acts on a record");
    tool["annotations"] = a.annotations;
    const Expectation e = semantics::call_needs(tool, vocabulary, semantics::kDefaultTrustLevel);
    expect.push_back(
        gate_check(a.check,
                   "annotations " + a.annotations.dump() +
                       (e.confirmation ? ": the defaults say destructive, confirmed" : ": no prompt needed"),
                   a.tool, e));
    tools.push_back(std::move(tool));
    task.push_back({{"tool", a.tool}, {"arguments", {{"id", "1"}}}});
  }
  documents.push_back(scenario_document(
      "confirm.triggers.absent", "Hints left absent: the specification's defaults decide",
      "A tool that leaves the specification's hints out is read with their defaults (readOnlyHint false, "
      "destructiveHint true): with none, or with readOnlyHint false alone, it may destroy and is confirmed; with "
      "destructiveHint false or readOnlyHint true it is not. Generated from the crosswalk's defaults.",
      {{"specification 2025-11-25", "ToolAnnotations (defaults)"},
       {"proposal 1 (policy hints)", "Clients MUST NOT assume hints are present"}},
      tools, task, expect));
  return documents;
}

// exfiltration.sources.<vocabulary>: per value, a read-only source carrying it, then a tool that
// sends outside; the send is gated when the value makes the returned data sensitive. Each pair
// runs in its own session, so one case never taints the next.
std::vector<json> sensitivity_scenarios(const Vocabulary& vocabulary) {
  std::map<std::string, std::vector<semantics::FieldValue>> by_vocabulary;
  const auto all = semantics::field_values(vocabulary, semantics::sensitivity_facets());
  const auto taints = [](const semantics::FieldValue& fv) {
    return std::any_of(fv.asserts.begin(), fv.asserts.end(), semantics::makes_sensitive);
  };
  const auto group_of = [](const semantics::FieldValue& fv) {
    return fv.field->vocabulary + (fv.field->latest ? "." + fv.field->latest->revision : "");
  };
  for (const auto& fv : all) by_vocabulary[group_of(fv)].push_back(fv);
  for (const auto& fv : all)
    if (auto several = behind_quiet_member(fv, all, taints)) by_vocabulary[group_of(fv)].push_back(*several);
  std::vector<json> documents;
  for (const auto& [group, values] : by_vocabulary) {
    json tools = json::array(), task = json::array(), expect = json::array();
    std::set<std::pair<std::string, std::string>> proposals;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto& fv = values[i];
      const std::string n = std::to_string(i + 1);
      const std::string source = "read" + n + "_" + slug(fv), sink = "send" + n;
      json source_tool =
          neutral_tool(source, "Reads a record (" + semantics::field_name(*fv.field) + " " + fv.value.dump() + ")");
      source_tool["annotations"] = {{"readOnlyHint", true}, {"openWorldHint", false}};
      place_members(source_tool, fv, vocabulary);
      json sink_tool = neutral_tool(sink, "Sends a message to an outside address");
      sink_tool["annotations"]["openWorldHint"] = true;  // what it reaches is outside: the world is open
      sink_tool["_meta"] = {{"mcp.dev/effect", "external"}};
      const bool sensitive = std::any_of(fv.asserts.begin(), fv.asserts.end(), semantics::makes_sensitive);
      Expectation e;
      e.confirmation = sensitive;
      json check = gate_check(ascii_lower(slug(fv)),
                              "after " + fv.field->key + " " + fv.value.dump() +
                                  (sensitive ? ": the send is confirmed or blocked" : ": the send needs no prompt"),
                              sink, e);
      check["requires"] = {{"tool", source}};
      expect.push_back(std::move(check));
      tools.push_back(std::move(source_tool));
      tools.push_back(std::move(sink_tool));
      if (i > 0) task.push_back({{"newSession", true}});
      task.push_back({{"tool", source}, {"arguments", {{"id", "1"}}}});
      task.push_back({{"tool", sink}, {"arguments", {{"id", "1"}}}});
      proposals.insert({proposal_of(*fv.field), fv.field->section});
    }
    std::string id = "exfiltration.sources." + group;
    std::replace(id.begin(), id.end(), '_', '-');
    documents.push_back(scenario_document(
        ascii_lower(id), "Every returned-data value of " + group + ", and whether it taints the context",
        "A read-only tool that declares what it returns, then a tool that sends outside, in a fresh session per "
        "value: after pii, financial, credentials or regulated data, or a confidential or restricted result, the "
        "send is confirmed or blocked; after none, user, public or internal data it needs no prompt. Generated "
        "from the crosswalk.",
        proposals, tools, task, expect));
  }
  return documents;
}

}  // namespace

std::vector<mock::Scenario> generated_scenarios() {
  static const std::vector<mock::Scenario> scenarios = [] {
    const Vocabulary& vocabulary = Vocabulary::builtin();
    std::vector<json> documents = confirmation_scenarios(vocabulary);
    for (auto& d : sensitivity_scenarios(vocabulary)) documents.push_back(std::move(d));
    std::vector<mock::Scenario> out;
    out.reserve(documents.size());
    // Validated by the scenario schema like a file: a generator bug is refused, never run.
    for (const auto& d : documents) out.push_back(mock::parse_scenario(d, "generated " + d["id"].get<std::string>()));
    return out;
  }();
  return scenarios;
}

}  // namespace mcp_hints::conformance
