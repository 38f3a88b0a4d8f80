// The scenarios' own catalogs against the suite's own lint: a fixture that contradicts it would
// grade a client that believes the specification's hints (an openWorldHint false beside a public
// destination is a contradiction here, and a client reading it as closed world would be warned for
// it). Every catalog a scenario serves (each server's, each authorization context's, each announced
// by tools/list_changed; files and generated alike) raises no contradiction and no malformation
// (the findings resting on the rules that declarations agree and that hints are well formed), but
// for the checks a scenario declares in catalogErrors: the malformation it tests, raised exactly.
#include <gtest/gtest.h>

#include <set>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/checks/traceability.hpp"
#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace {

using json = nlohmann::json;
namespace mock = mcp_hints::mock;

// A check that finds two declarations contradicting each other, or a malformed one.
bool contradiction_or_malformation(const std::string& check) {
  const auto basis = mcp_hints::enforced_sentence(check);
  return basis && basis->document->id == "mcp-hints" &&
         (basis->sentence->id == "consistent-declarations" || basis->sentence->id == "well-formed-hints");
}

// The checks whose contradictions or malformations the scenario's catalogs raise, and where (one
// line each).
std::pair<std::set<std::string>, std::string> catalog_errors(const mock::Scenario& scenario) {
  const mcp_hints::Linter linter(mcp_hints::LintOptions{});
  std::set<std::string> checks;
  std::string where;
  auto lint = [&](const std::vector<json>& tools, const std::string& catalog) {
    for (std::size_t i = 0; i < tools.size(); ++i) {
      std::vector<mcp_hints::Finding> findings;
      linter.lint_tool(tools[i], scenario.source, "/tools/" + std::to_string(i), nullptr, findings);
      for (const auto& f : findings)
        if (contradiction_or_malformation(f.check)) {
          checks.insert(f.check);
          where += scenario.id + " " + catalog + " " + f.tool + ": " + f.check + ": " + f.message + "\n";
        }
    }
  };
  for (const auto& [name, server] : scenario.servers) {
    lint(server.tools, name);
    for (const auto& [context, tools] : server.tools_by_authorization) lint(tools, name + " under " + context);
    for (const auto& [tool, steps] : server.scripts)
      for (std::size_t s = 0; s < steps.size(); ++s)
        if (steps[s].list_changed)
          lint(*steps[s].list_changed, name + " after " + tool + "'s step " + std::to_string(s + 1));
  }
  return {checks, where};
}

std::vector<mock::Scenario> every_scenario() {
  std::vector<mock::Scenario> all = mcp_hints::conformance::certification_scenarios();
  for (const auto& id : mock::builtin_scenario_ids()) {
    auto scenario = mock::load_scenario(id);
    if (!scenario.document.contains("expect")) all.push_back(std::move(scenario));  // the mock's own
  }
  return all;
}

TEST(ScenarioCatalogs, LintWithoutErrorButWhatTheyDeclare) {
  const auto scenarios = every_scenario();
  ASSERT_GT(scenarios.size(), 40u);
  std::size_t declaring = 0;
  for (const auto& scenario : scenarios) {
    const auto [raised, where] = catalog_errors(scenario);
    const auto declared = scenario.document.value("catalogErrors", std::set<std::string>{});
    declaring += declared.empty() ? 0 : 1;
    EXPECT_EQ(raised, declared) << scenario.id << ": its catalogs raise errors it does not declare, or declare "
                                << "errors they do not raise:\n"
                                << where;
  }
  EXPECT_GE(declaring, 1u);  // robustness.malformed-hints: the malformation it tests
}

// The negative control: a catalog that contradicts the lint is caught, in every place a scenario
// serves one.
TEST(ScenarioCatalogs, AContradictionIsCaughtWhereverTheScenarioServesIt) {
  const json contradicting = {
      {"name", "upload"},
      {"inputSchema", {{"type", "object"}}},
      {"annotations",
       {{"readOnlyHint", false},
        {"destructiveHint", false},
        {"openWorldHint", false},
        {"inputMetadata", {{"Destination", "Public"}, {"Sensitivity", "User"}, {"Outcomes", "Consequential"}}}}}};
  const json clean = {
      {"name", "get"}, {"inputSchema", {{"type", "object"}}}, {"annotations", {{"readOnlyHint", true}}}};
  json document = {{"id", "t.x"},     {"title", "t"},
                   {"checks", "c"},   {"proposals", {{{"proposal", "p"}, {"section", "s"}}}},
                   {"level", "MUST"}, {"servers", {{"main", {{"tools", {clean}}}}}}};
  EXPECT_EQ(catalog_errors(mock::parse_scenario(document, "t.json")).first, std::set<std::string>{});

  json listed = document;
  listed["servers"]["main"]["tools"].push_back(contradicting);
  json per_context = document;
  per_context["authorizations"] = {{"alice", {{"token", "a"}}}, {"bob", {{"token", "b"}}}};
  per_context["servers"]["main"]["toolsByAuthorization"] = {{"alice", {contradicting}}};
  json announced = document;
  announced["servers"]["main"]["scripts"] = {
      {"get", {{{"result", {{"content", json::array()}}}, {"listChanged", {{"tools", {clean, contradicting}}}}}}}};
  for (const auto& [what, d] : {std::pair{"listed", listed}, {"per context", per_context}, {"announced", announced}}) {
    const auto [raised, where] = catalog_errors(mock::parse_scenario(d, "t.json"));
    EXPECT_EQ(raised, std::set<std::string>{"open-world.contradiction"}) << what << "\n" << where;
  }
}

}  // namespace
