// Coverage by construction: the generated scenarios are valid data, listed and loadable like the
// hand-written ones; the coverage table finds every value, boundary and key of each semantic
// exercised; it notices a value that no scenario exercises; and a check whose verdicts contradict
// the rule for a value does not count for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
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
  EXPECT_EQ(semantics, (std::set<std::string>{"confirmation", "absent hints", "sensitive data", "propagation",
                                              "malicious activity"}));
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
                                          s.id.starts_with("escalation.");
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

// The dimensions beyond values each have a row, exercised by their scenarios alone: without
// them the rows are reported, and a scenario whose shape does not reach the dimension (the changed
// tool on the first page; a second server whose namesake asks too) does not count.
TEST(Coverage, EveryDimensionBeyondValuesIsExercisedAndMissedWithoutItsScenario) {
  const std::vector<std::string> expected = {
      "confirmation: catalogue shape new hints on a later page of a relist (asks)",
      "confirmation: catalogue shape one tool name on two servers, with different hints (asks)",
      "confirmation: catalogue shape a relist that withdraws a hint (its default applies) (asks)",
      "propagation: failure events set by a result with isError true (carried)",
      "propagation: failure events carried on the reconnection after the server dropped the connection (carried)",
      "confirmation: failure events a confirmed call that timed out (sending it again is a new call) (asks)",
      "propagation: scope set with tools/list_changed, carried on the relist (carried)",
      "propagation: trust-annotations attribution set by a result (cleared by a new session)",
      "propagation: trust-annotations privateHint set by a result (cleared by a new session)",
      "confirmation: trust-annotations inputMetadata.outcomes several members, the deciding one not first (asks)",
      "sensitive data: action-security returnMetadata.Sensitivity several members, the deciding one not first "
      "(taints)",
      "sensitive data: defaults openWorldHint absent on a writer (open world by default) (asks)",
      "propagation: trust-annotations sensitiveHint set at \"low\" alone (carried)",
      "confirmation: stateless era several input requests in one input_required result, each answered apart (asks)",
      "confirmation: stateless era a listing used again within its ttlMs, then called after it (asks)",
      "propagation: stateless era carried on the retry after input_required (carried)",
      "sensitive data: scope returned by one server, sent out through another (asks)",
      "malicious activity: scope reported by one server, before another server's write (asks)",
      "sensitive data: precedence a content block that claims less than its result (asks)"};
  const auto all = coverage(certification_scenarios());
  // Every level of sensitiveHint, each set alone somewhere (medium also by propagation.cross-server).
  for (const char* level : {"low", "medium", "high"}) {
    const auto* r = row(all, "trust-annotations sensitiveHint", std::string("set at \"") + level + "\" alone");
    ASSERT_NE(r, nullptr) << level;
    EXPECT_FALSE(r->exercised_by.empty()) << level;
  }
  for (const auto& text : expected)
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const CoverageRow& r) {
      return r.semantic + ": " + r.key + " " + r.value + " (" + r.role + ")" == text && !r.exercised_by.empty();
    })) << text;
  auto scenarios = certification_scenarios();
  const std::set<std::string> dimension_scenarios = {
      "rugpull.later-page-relisted",    "confirm.same-name-two-servers",    "rugpull.hint-withdrawn",
      "propagation.error-result",       "propagation.across-list-changed",  "propagation.new-session-clears-every-key",
      "confirm.input-required-several", "propagation.input-required-retry", "rugpull.ttl-counted-from-receipt",
      "exfiltration.across-servers",    "escalation.across-servers",        "propagation.across-reconnect",
      "retry.timed-out-not-repeated"};
  std::vector<mock::Scenario> without;
  for (auto& s : scenarios) {
    if (s.id.starts_with("confirm.triggers.") || s.id.starts_with("exfiltration.sources.")) {
      // The generated cases of several members: the lists cut to their deciding member.
      json document = s.document;
      std::function<void(json&)> cut = [&](json& value) {
        if (value.is_array() && value.size() > 1) value = json::array({value.back()});
        if (value.is_object())
          for (auto& member : value) cut(member);
      };
      for (auto& tool : document["servers"]["main"]["tools"]) cut(tool);
      without.push_back(mock::parse_scenario(document, s.source));
    } else if (s.id.starts_with("exfiltration.after-sensitive-")) {
      // Without the writer that leaves openWorldHint out, and without the propagation check.
      json document = s.document;
      json kept = json::array();
      for (const auto& check : document["expect"])
        if (check["id"] != "open-world-default" && check["id"] != "carried") kept.push_back(check);
      document["expect"] = kept;
      without.push_back(mock::parse_scenario(document, s.source));
    } else if (s.id == "exfiltration.after-extension-sensitive") {
      json document = s.document;  // without the gate after a block that claims less
      json kept = json::array();
      for (const auto& check : document["expect"])
        if (check["id"] != "block-cannot-weaken") kept.push_back(check);
      document["expect"] = kept;
      without.push_back(mock::parse_scenario(document, s.source));
    } else if (!dimension_scenarios.count(s.id)) {
      without.push_back(s);
    }
  }
  const auto missing = unexercised(coverage(without));
  for (const auto& text : expected) EXPECT_NE(std::find(missing.begin(), missing.end(), text), missing.end()) << text;
  // Shapes that do not reach the dimension do not count for it.
  json paged = load_certification_scenario("rugpull.later-page-relisted").document;
  paged["servers"]["main"]["pageSize"] = 2;
  json shared = load_certification_scenario("confirm.same-name-two-servers").document;
  shared["servers"]["mirror"]["tools"][0]["annotations"] = {{"destructiveHint", true}};
  json withdrawn = load_certification_scenario("rugpull.hint-withdrawn").document;
  withdrawn["servers"]["main"]["scripts"]["archive_record"][0]["listChanged"]["tools"][0]["annotations"]
           ["destructiveHint"] = true;
  const auto shapes =
      unexercised(coverage({mock::parse_scenario(paged, "paged"), mock::parse_scenario(shared, "shared"),
                            mock::parse_scenario(withdrawn, "withdrawn")}));
  for (const auto& text : std::vector<std::string>(expected.begin(), expected.begin() + 3))
    EXPECT_NE(std::find(shapes.begin(), shapes.end(), text), shapes.end()) << text;
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
  // The table of docs/scenarios.md is the command's, so it cannot drift.
  const auto markdown = test_support::run_cli({"certify", "--coverage", "--format", "markdown"});
  EXPECT_NE(test_support::read_file(test_support::source_dir() / "docs" / "scenarios.md").find(markdown.out),
            std::string::npos)
      << "docs/scenarios.md: replace the coverage table by the output of `mcp-hints certify --coverage --format "
         "markdown`";
  test_support::expect_usage_error({"certify", "--coverage", "--format", "json"}, "--coverage prints text or markdown");
}

}  // namespace
