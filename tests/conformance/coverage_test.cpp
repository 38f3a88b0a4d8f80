// Coverage by construction: the generated scenarios are valid data, listed and loadable like the
// hand-written ones; the coverage table finds every value, boundary and key of each semantic
// exercised; it notices a value that no scenario exercises; and a check whose verdicts contradict
// the rule for a value does not count for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/coverage.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints::conformance;
namespace mock = mcp_hints::mock;

std::vector<std::string> unexercised(const std::vector<CoverageRow>& rows) {
  std::vector<std::string> out;
  for (const auto& row : rows)
    if (row.exercised_by.empty())
      out.push_back(row.semantic + ": " + row.key + " " + row.value + " (" + row.role + ")");
  return out;
}

const CoverageRow* row(const std::vector<CoverageRow>& rows, const std::string& key, const std::string& value) {
  for (const auto& r : rows)
    if (r.key == key && r.value == value) return &r;
  return nullptr;
}

TEST(Coverage, EveryTriggerValueBoundaryAndKeyIsExercised) {
  const auto rows = coverage(certification_scenarios());
  EXPECT_EQ(unexercised(rows), std::vector<std::string>{});
  std::set<std::string> semantics;
  for (const auto& r : rows) semantics.insert(r.semantic);
  EXPECT_EQ(semantics, (std::set<std::string>{"confirmation", "absent hints", "sensitive data", "propagation"}));
  // Both sides of each threshold: every minTrustLevel against the client's 3, every risk level.
  for (int n = 1; n <= 5; ++n) {
    const auto* r = row(rows, "risk-metadata minTrustLevel", std::to_string(n));
    ASSERT_NE(r, nullptr) << n;
    EXPECT_EQ(r->role, n > 3 ? "asks" : "does not ask") << n;
  }
  for (const char* level : {"low", "medium", "high", "critical"})
    EXPECT_NE(row(rows, "risk-metadata riskLevel", json(level).dump()), nullptr) << level;
  EXPECT_EQ(row(rows, "risk-metadata riskLevel", "\"critical\"")->role, "asks");
  EXPECT_EQ(row(rows, "risk-metadata riskLevel", "\"high\"")->role, "does not ask");
  // Every key of every vocabulary revision that can ask: all three outcome keys, every confirmation key.
  for (const char* key : {"trust-annotations inputMetadata.outcomes", "action-security inputMetadata.Outcomes",
                          "action-metadata inputMetadata.outcomes", "action-metadata requiresReview",
                          "policy-hints mcp.dev/requiresConfirmation", "risk-metadata approvalRecommendation"})
    EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [&](const CoverageRow& r) { return r.key == key; })) << key;
  for (const char* key : {"privateHint", "sensitiveHint", "openWorldHint", "maliciousActivityHint", "attribution"})
    EXPECT_NE(row(rows, std::string("trust-annotations ") + key, "set by a result"), nullptr) << key;
}

TEST(Coverage, AValueNoScenarioExercisesIsReported) {
  auto scenarios = certification_scenarios();
  scenarios.erase(std::remove_if(scenarios.begin(), scenarios.end(),
                                 [](const mock::Scenario& s) {
                                   return s.id == "confirm.triggers.risk-metadata" || s.id == "confirm.min-trust" ||
                                          s.id == "escalation.malicious-activity";
                                 }),
                  scenarios.end());
  const auto missing = unexercised(coverage(scenarios));
  for (const char* expected : {"confirmation: risk-metadata riskLevel \"high\" (does not ask)",
                               "confirmation: risk-metadata minTrustLevel 4 (asks)",
                               "confirmation: risk-metadata category \"utility\" (does not ask)",
                               "propagation: trust-annotations maliciousActivityHint set by a result (carried)"})
    EXPECT_NE(std::find(missing.begin(), missing.end(), expected), missing.end()) << expected;
  // riskLevel critical is still exercised by the hand-written confirm.risk-critical.
  EXPECT_EQ(std::find(missing.begin(), missing.end(), "confirmation: risk-metadata riskLevel \"critical\" (asks)"),
            missing.end());
  const auto text = coverage_text(coverage(scenarios));
  EXPECT_NE(text.find("risk-metadata riskLevel \"high\" | does not ask | NOT EXERCISED"), std::string::npos) << text;
}

// A check counts for a value only when its verdicts follow the rule for that value alone.
TEST(Coverage, ACheckThatContradictsTheRuleOrMixesTriggersDoesNotCount) {
  auto scenario_with = [](json tool, json traces) {
    tool["name"] = "t";
    tool["inputSchema"] = {{"type", "object"}};
    const json document = {
        {"id", "t.x"},
        {"title", "t"},
        {"checks", "c"},
        {"proposals", {{{"proposal", "p"}, {"section", "s"}}}},
        {"level", "SHOULD"},
        {"basis", "spec/prompt-sensitive"},
        {"servers", {{"main", {{"tools", {tool}}}}}},
        {"task", json::array()},
        {"expect", {{{"id", "g"}, {"title", "t"}, {"kind", "gate"}, {"tool", "t"}, {"traces", traces}}}}};
    return std::vector<mock::Scenario>{mock::parse_scenario(document, "t.json")};
  };
  const json asks = {{"confirmed-called", "pass"}}, free = {{"called-unprompted", "pass"}};
  const json base = {{"readOnlyHint", false}, {"destructiveHint", false}, {"openWorldHint", false}};
  auto exercised = [&](const std::vector<mock::Scenario>& s, const char* key, const char* value) {
    return !row(coverage(s), key, value)->exercised_by.empty();
  };
  json high = base;
  high["riskLevel"] = "high";
  EXPECT_TRUE(exercised(scenario_with({{"annotations", high}}, free), "risk-metadata riskLevel", "\"high\""));
  // Demanding a prompt for riskLevel high is not the rule: it exercises neither role.
  EXPECT_FALSE(exercised(scenario_with({{"annotations", high}}, asks), "risk-metadata riskLevel", "\"high\""));
  json critical = base;
  critical["riskLevel"] = "critical";
  EXPECT_TRUE(exercised(scenario_with({{"annotations", critical}}, asks), "risk-metadata riskLevel", "\"critical\""));
  EXPECT_FALSE(exercised(scenario_with({{"annotations", critical}}, free), "risk-metadata riskLevel", "\"critical\""));
  // Two triggers on one tool: a client honouring either passes, so neither is exercised alone.
  critical["approvalRecommendation"] = "single";
  EXPECT_FALSE(exercised(scenario_with({{"annotations", critical}}, asks), "risk-metadata riskLevel", "\"critical\""));
}

TEST(Coverage, GeneratedScenariosAreListedLoadableAndPrinted) {
  const auto generated = generated_scenarios();
  ASSERT_GE(generated.size(), 10u);
  std::set<std::string> ids;
  std::size_t checks = 0;
  for (const auto& s : generated) {
    EXPECT_TRUE(ids.insert(s.id).second) << s.id;
    EXPECT_EQ(load_certification_scenario(s.id).document, s.document) << s.id;
    checks += read_checks(s).size();
  }
  EXPECT_GE(checks, 60u);
  for (const char* id : {"confirm.triggers.spec", "confirm.triggers.risk-metadata", "confirm.triggers.absent",
                         "exfiltration.sources.action-security.seed"})
    EXPECT_TRUE(ids.count(id)) << id;
  const auto list = test_support::run_cli({"certify", "--list"});
  const auto generated_row = list.out.find("\nconfirm.triggers.risk-metadata ");
  ASSERT_NE(generated_row, std::string::npos) << list.out;
  EXPECT_NE(list.out.find("\n  mintrustlevel-4 ", generated_row), std::string::npos);
  const auto table = test_support::run_cli({"certify", "--coverage"});
  EXPECT_EQ(table.exit_code, 0) << table.out;
  EXPECT_NE(table.out.find(" rows exercised\n"), std::string::npos);
  // The README's table is the command's, so it cannot drift.
  const auto markdown = test_support::run_cli({"certify", "--coverage", "--format", "markdown"});
  EXPECT_NE(test_support::read_file(test_support::source_dir() / "README.md").find(markdown.out), std::string::npos)
      << "README.md: replace the coverage table by the output of `mcp-hints certify --coverage --format markdown`";
  test_support::expect_usage_error({"certify", "--coverage", "--format", "json"}, "--coverage prints text or markdown");
}

}  // namespace
