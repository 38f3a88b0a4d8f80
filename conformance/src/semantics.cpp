#include "semantics.hpp"

#include <algorithm>
#include <set>

#include "mcp_hints/vocab/hint_model.hpp"

namespace mcp_hints::conformance::semantics {

using json = nlohmann::json;

bool asks_confirmation(const FacetValue& v, int trust_level) {
  if (v.facet == "effect") return v.value == "delete";
  if (v.facet == "confirmation") return v.value == "single" || v.value == "multi";
  if (v.facet == "outcome") return v.value == "irreversible";
  if (v.facet == "risk") return v.value == "critical";
  if (v.facet == "min-trust") return v.value.is_number_integer() && v.value.get<int>() > trust_level;
  return false;
}

bool makes_sensitive(const FacetValue& v) {
  if (v.facet == "result-data")
    return v.value == "pii" || v.value == "financial" || v.value == "credentials" || v.value == "regulated";
  if (v.facet == "result-sensitivity") return v.value == "confidential" || v.value == "restricted";
  return false;
}

bool leaves(const FacetValue& v) {
  return (v.facet == "effect" && v.value == "external") || (v.facet == "destination" && v.value == "public") ||
         (v.facet == "open-world" && v.value == true);
}

namespace {

int level_rank(const std::string& level) { return level == "MUST" ? 2 : level == "SHOULD" ? 1 : 0; }

}  // namespace

std::string weaker_level(const std::string& a, const std::string& b) { return level_rank(a) <= level_rank(b) ? a : b; }

std::string level_cap(const json& tool, const Vocabulary& vocabulary, int trust_level, std::string* why,
                      std::string* basis) {
  std::string cap;
  for (const auto& fv : asserted_values(tool, vocabulary)) {
    const bool decides = std::any_of(fv.asserts.begin(), fv.asserts.end(), [&](const FacetValue& v) {
      return asks_confirmation(v, trust_level) || leaves(v);
    });
    if (!decides || !fv.field->latest) continue;
    const VocabularyRevision& revision = *fv.field->latest;
    if (cap.empty() || level_rank(revision.client_level) > level_rank(cap)) {
      cap = revision.client_level;
      if (why)
        *why = field_name(*fv.field) + " " + fv.value.dump() + " (" + revision.title + ": " + revision.client_level +
               ", '" + revision.client_words + "')";
      if (basis) *basis = revision.client_basis;
    }
  }
  return cap;
}

json written_value(const std::string& key) {
  if (key == "true") return true;
  if (key == "false") return false;
  if (key.size() > 2 && key.front() == '{' && key.back() == '}')  // SEP-1913 requires at least one scope
    return {{key.substr(1, key.size() - 2), {{"scopes", json::array({"gdpr"})}}}};
  return key;
}

std::vector<FieldValue> field_values(const Vocabulary& vocabulary, const std::vector<std::string>& facets) {
  std::vector<FieldValue> out;
  for (const auto& field : vocabulary.fields()) {
    if (field.is_message_field) continue;
    const auto field_facets = field.facets();
    std::vector<std::string> wanted;
    for (const auto& f : field_facets)
      if (std::find(facets.begin(), facets.end(), f) != facets.end()) wanted.push_back(f);
    if (wanted.empty()) continue;
    for (const auto& [key, targets] : field.map) {
      if (key == "*") {
        for (const auto& f : wanted) {
          const Facet& facet = vocabulary.facet(f);
          if (facet.kind != "integer" || !facet.minimum || !facet.maximum) continue;
          // Every integer of the range: both sides of any threshold a client compares against.
          for (int n = *facet.minimum; n <= *facet.maximum; ++n) out.push_back({&field, n, {{f, n}}});
        }
        continue;
      }
      out.push_back({&field, written_value(key), targets});
    }
  }
  return out;
}

std::vector<FieldValue> asserted_values(const json& tool, const Vocabulary& vocabulary) {
  // From the tool itself, not from the hint model's claims, so that a value asserting no facet
  // (SEP-2793's category "utility") is seen too.
  std::vector<FieldValue> out;
  std::set<std::string> seen;
  for (const auto& field : vocabulary.fields()) {
    if (field.is_message_field || !seen.insert(field.pointer_text).second) continue;
    const json* raw = find_member(tool, field.tokens);
    if (!raw) continue;
    if (const auto& when = field.meaningful_when) {
      const json* other = find_member(tool, when->tokens);
      if ((other ? *other : when->when_absent) != when->equals) continue;  // e.g. destructiveHint on a read-only tool
    }
    std::vector<json> elements;
    if (field.set_valued && raw->is_array())
      elements.assign(raw->begin(), raw->end());
    else
      elements.push_back(*raw);
    for (const auto& element : elements)
      if (auto asserts = field.facet_values(element)) out.push_back({&field, element, *asserts});
  }
  return out;
}

CallNeeds call_needs(const json& tool, const Vocabulary& vocabulary, int trust_level) {
  const ToolHints hints = read_tool_hints(tool, vocabulary, kDefaultSpecRevision);
  CallNeeds needs;
  for (const auto& facet : confirmation_facets()) {
    const auto value = hints.resolved(facet, vocabulary);
    if (!value) continue;
    const FacetValue fv{facet, *value};
    if (asks_confirmation(fv, trust_level)) needs.confirmation = true;
    if (fv.facet == "confirmation" && *value == "multi") needs.confirmations = 2;
  }
  // The specification: destructiveHint "Default: true", meaningful when readOnlyHint is false.
  const json* read_only_hint = find_member(tool, {"annotations", "readOnlyHint"});
  if (read_only_hint && *read_only_hint == false && !find_member(tool, {"annotations", "destructiveHint"}))
    needs.confirmation = true;
  return needs;
}

int scenario_trust_level(const mock::Scenario& scenario) {
  const json& document = scenario.document;
  return document.contains("client") ? document["client"].value("trustLevel", kDefaultTrustLevel) : kDefaultTrustLevel;
}

const mock::ServerSpec* scenario_server(const mock::Scenario& scenario, const std::string& server) {
  const auto it =
      server.empty() && scenario.servers.size() == 1 ? scenario.servers.begin() : scenario.servers.find(server);
  return it == scenario.servers.end() ? nullptr : &it->second;
}

const json* scenario_tool(const mock::Scenario& scenario, const std::string& server, const std::string& name,
                          const std::string& authorization) {
  const mock::ServerSpec* spec = scenario_server(scenario, server);
  if (!spec) return nullptr;
  const auto own = spec->tools_by_authorization.find(authorization);
  for (const auto& tool : own == spec->tools_by_authorization.end() ? spec->tools : own->second)
    if (tool.value("name", "") == name) return &tool;
  return nullptr;
}

const std::vector<json>* announced_catalog(const mock::Scenario& scenario, const std::string& server,
                                           std::size_t* step_index) {
  const mock::ServerSpec* spec = scenario_server(scenario, server);
  if (!spec) return nullptr;
  for (const auto& [tool, steps] : spec->scripts)
    for (std::size_t i = 0; i < steps.size(); ++i)
      if (steps[i].list_changed) {
        if (step_index) *step_index = i;
        return &*steps[i].list_changed;
      }
  return nullptr;
}

const json* checked_tool(const mock::Scenario& scenario, const json& check) {
  const std::string server = check.value("server", ""), name = check.value("tool", "");
  if (!check.contains("after")) return scenario_tool(scenario, server, name, check.value("authorization", ""));
  const auto* announced = announced_catalog(scenario, server);
  if (!announced) return nullptr;
  for (const auto& tool : *announced)
    if (tool.value("name", "") == name) return &tool;
  return nullptr;
}

bool field_touches(const Field& field, const std::vector<std::string>& facets) {
  const auto own = field.facets();
  return std::any_of(own.begin(), own.end(),
                     [&](const std::string& f) { return std::find(facets.begin(), facets.end(), f) != facets.end(); });
}

bool value_touches(const FieldValue& value, const std::vector<std::string>& facets) {
  if (value.asserts.empty()) return field_touches(*value.field, facets);
  return std::any_of(value.asserts.begin(), value.asserts.end(), [&](const FacetValue& v) {
    return std::find(facets.begin(), facets.end(), v.facet) != facets.end();
  });
}

std::string field_name(const Field& field) { return field.vocabulary + " " + field.key; }

}  // namespace mcp_hints::conformance::semantics
