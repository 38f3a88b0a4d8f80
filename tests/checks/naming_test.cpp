// The naming check on real tools: the hand-labelled corpus of tests/fixtures/infer/real-tools.json,
// each tool declaring its correct effect as the specification's hints, is a correct catalog, and
// no naming or contradiction check may fire on it. (Its negative control, vendor-prefixed and
// object-first names with a wrong claim, is tests/fixtures/lint/negative/infer.contradicts-name.json.)
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/vocab/infer.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;

// The hand label as the specification's hints.
json annotated(json tool) {
  const std::string effect = tool["effect"];
  json annotations = {{"readOnlyHint", effect == "read"}};
  if (effect != "read") annotations["destructiveHint"] = effect == "delete";
  if (effect == "external") annotations["openWorldHint"] = true;
  json out = {{"name", tool["name"]}, {"description", tool["description"]}, {"annotations", annotations}};
  out["inputSchema"] = tool.contains("inputSchema") ? tool["inputSchema"] : json{{"type", "object"}};
  return out;
}

TEST(Naming, ACorrectCatalogOfRealToolsRaisesNoNamingOrContradictionFinding) {
  const json corpus = test_support::read_json(test_support::fixture("infer/real-tools.json"));
  json catalog = {{"tools", json::array()}};
  for (const auto& tool : corpus["tools"]) catalog["tools"].push_back(annotated(tool));
  std::istringstream in(catalog.dump());
  mcp_hints::FindingList findings;
  const auto result = mcp_hints::Linter({}).lint_stream(in, "real-tools", findings);
  ASSERT_FALSE(result.error) << *result.error;
  EXPECT_EQ(result.tool_count, corpus["tools"].size());
  for (const auto& f : findings)
    if (f.check.starts_with("infer.") || f.check.starts_with("hints.") || f.check.starts_with("idempotency."))
      ADD_FAILURE() << f.check << " " << f.tool << ": " << f.message;
}

}  // namespace

// A finding says where the name says it: each tool of the negative control is reported with its
// name's evidence, as infer reads it, before what the hint claims.
TEST(Naming, AFindingQuotesTheNamesEvidence) {
  const json catalog = test_support::read_json(test_support::fixture("lint/negative/infer.contradicts-name.json"));
  std::istringstream in(catalog.dump());
  mcp_hints::FindingList findings;
  const auto result = mcp_hints::Linter({}).lint_stream(in, "negative", findings);
  ASSERT_FALSE(result.error) << *result.error;
  std::set<std::string> reported;
  for (const auto& f : findings) {
    if (f.check != "infer.contradicts-name") continue;
    const std::string evidence = mcp_hints::classify_name(f.tool).name_evidence;
    ASSERT_FALSE(evidence.empty()) << f.tool;
    EXPECT_TRUE(f.message.starts_with(evidence + " but ")) << f.tool << ": " << f.message;
    reported.insert(f.tool);
  }
  EXPECT_EQ(reported.size(), catalog["tools"].size());
}
