#pragma once
// The client semantics the scenarios certify, as rules on the crosswalk's facets: which facet
// values ask a client to confirm a call, and which make what a tool returned sensitive data that
// must not leave silently. The generator derives its cases from these rules and the vocabulary;
// the coverage table reads every scenario through the same rules, so neither can drift from the
// other.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints::conformance::semantics {

// The trust level clients get when a scenario names none (ADAPTER.md: trustLevel).
inline constexpr int kDefaultTrustLevel = 3;

// The client's trust level in a scenario (client.trustLevel, else the default).
int scenario_trust_level(const mock::Scenario& scenario);
// A scenario's server by name; empty: the scenario's only server. nullptr when there is none.
const mock::ServerSpec* scenario_server(const mock::Scenario& scenario, const std::string& server);
// A tool a scenario's server lists first, by name, under an authorization context (its own
// catalog, else the server's; empty: the server's); server empty: the scenario's only server.
// nullptr when there is no such server or tool.
const nlohmann::json* scenario_tool(const mock::Scenario& scenario, const std::string& server, const std::string& name,
                                    const std::string& authorization = {});
// The catalogue a server announces with tools/list_changed (the first step of its scripts that
// does), and the step's index in its tool's script; nullptr when none does.
const std::vector<nlohmann::json>* announced_catalog(const mock::Scenario& scenario, const std::string& server,
                                                     std::size_t* step_index = nullptr);
// The tool a check's calls are of (its server, tool and authorization): for a gate judged after
// tools/list_changed ("after"), as the announced catalogue lists it, the hints the calls it
// judges are made under. nullptr when there is none.
const nlohmann::json* checked_tool(const mock::Scenario& scenario, const nlohmann::json& check);

// Confirmation: the specification's destructive tools ("clients SHOULD ... confirm"), a
// server's confirmation preference (proposal 1 requiresConfirmation, SEP-2793
// approvalRecommendation, the action-metadata extension's requiresReview), irreversible
// outcomes (action security), critical risk and a minimum trust level above the client's
// (SEP-2793).
bool asks_confirmation(const FacetValue& value, int trust_level);
// Sensitive data in the context: returned data classes pii, financial, credentials and regulated
// (action security: silent data exfiltration), and confidential or restricted results
// (proposal 1 resultSensitivity).
bool makes_sensitive(const FacetValue& value);

// One value a tool-level field can take, and what it asserts.
struct FieldValue {
  const Field* field = nullptr;
  nlohmann::json value;             // as a server writes it (an element, for set-valued fields)
  std::vector<FacetValue> asserts;  // the facet values it means ("*" resolved)
};

// A crosswalk map key as the JSON value a server writes: "true" -> true, "read" -> "read";
// "{regulated}" -> {"regulated": {"scopes": ["gdpr"]}} (SEP-1913's object form, with the scope it
// requires).
nlohmann::json written_value(const std::string& key);

// Every value of every tool-level field whose facets are in `facets`: the map's values, and for
// integer facets every integer of the facet's range.
std::vector<FieldValue> field_values(const Vocabulary& vocabulary, const std::vector<std::string>& facets);

// The field values a tool asserts, under the specification revision clients read.
std::vector<FieldValue> asserted_values(const nlohmann::json& tool, const Vocabulary& vocabulary);

// Where a call sends its input outside: proposal 1's effect external, a public destination
// (action security), or an open world (the specification).
bool leaves(const FacetValue& value);

// The level a check on a call of this tool can have under one rule: no stronger than the
// strongest client obligation among the vocabularies whose values make the call need a prompt or
// send data outside (VocabularyRevision::client_level). Empty when no value of the tool does
// (the check rests on absence, or on what results said). `why` names the values and the words,
// `basis` the sentence that sets the cap (VocabularyRevision::client_basis).
std::string level_cap(const nlohmann::json& tool, const Vocabulary& vocabulary, int trust_level, std::string* why,
                      std::string* basis = nullptr);
// The weaker of two levels ("MUST" > "SHOULD" > "MAY").
std::string weaker_level(const std::string& a, const std::string& b);

// What a call of this tool needs, from every value it resolves to (the specification's defaults
// included, for what it leaves absent).
struct CallNeeds {
  bool confirmation = false;
  int confirmations = 1;  // approvalRecommendation multi: 2
};
CallNeeds call_needs(const nlohmann::json& tool, const Vocabulary& vocabulary, int trust_level);

// The facets whose values can ask for confirmation, and those that can make returned data sensitive.
inline const std::vector<std::string>& confirmation_facets() {
  static const std::vector<std::string> facets = {"effect", "confirmation", "outcome", "risk", "min-trust"};
  return facets;
}
inline const std::vector<std::string>& sensitivity_facets() {
  static const std::vector<std::string> facets = {"result-data", "result-sensitivity"};
  return facets;
}

// Whether a field can speak of any of `facets` (its map names one), whatever value it has.
bool field_touches(const Field& field, const std::vector<std::string>& facets);
// Whether a value speaks of any of `facets`: what it asserts, else (a value that asserts
// nothing) what its field can speak of.
bool value_touches(const FieldValue& value, const std::vector<std::string>& facets);

// "risk-metadata riskLevel", "spec readOnlyHint".
std::string field_name(const Field& field);

}  // namespace mcp_hints::conformance::semantics
