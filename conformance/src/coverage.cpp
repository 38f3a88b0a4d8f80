#include "mcp_hints/conformance/coverage.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "mcp_hints/json/text.hpp"
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

bool taints(const semantics::FieldValue& fv) {
  return std::any_of(fv.asserts.begin(), fv.asserts.end(), semantics::makes_sensitive);
}

bool touches(const semantics::FieldValue& fv, const std::vector<std::string>& facets) {
  return std::any_of(
             fv.asserts.begin(), fv.asserts.end(),
             [&](const FacetValue& v) { return std::find(facets.begin(), facets.end(), v.facet) != facets.end(); }) ||
         (fv.asserts.empty() && std::any_of(facets.begin(), facets.end(), [&](const std::string& f) {
            const auto own = fv.field->facets();
            return std::find(own.begin(), own.end(), f) != own.end();
          }));
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
        field.pointer_text.rfind("/_meta/annotations/", 0) == 0)
      table.define("propagation", "trust-annotations " + field.key, "set by a result", "carried");

  for (const auto& scenario : scenarios) {
    const json& doc = scenario.document;
    const int scenario_trust = semantics::scenario_trust_level(scenario);
    for (const auto& check : doc.value("expect", json::array())) {
      const std::string name = scenario.id + ":" + check.value("id", "");
      const std::string kind = check.value("kind", "");
      if (kind == "propagation" || kind == "clean-start") {
        table.exercise({"propagation", "trust-annotations " + check.value("key", ""), "set by a result", "carried"},
                       name);
        continue;
      }
      if (kind != "gate" || check.contains("after")) continue;
      const std::string verdict = unprompted_verdict(check);
      const bool demands = verdict != "pass" && verdict != "info";
      const json* tool = semantics::scenario_tool(scenario, check.value("server", ""), check.value("tool", ""),
                                                  check.value("authorization", ""));
      if (!tool) continue;
      const auto values = semantics::asserted_values(*tool, vocabulary);
      if (!check.contains("requires")) {
        // Confirmation: the value alone decides whether the call needs a prompt.
        if (semantics::call_needs(*tool, vocabulary, scenario_trust).confirmation != demands) continue;
        const auto asking = std::count_if(values.begin(), values.end(),
                                          [&](const semantics::FieldValue& fv) { return asks({fv}, scenario_trust); });
        for (const auto& fv : values) {
          if (!touches(fv, semantics::confirmation_facets())) continue;
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
      for (const auto& fv : sources) {
        if (!touches(fv, semantics::sensitivity_facets())) continue;
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
