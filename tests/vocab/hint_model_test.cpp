#include "mcp_hints/vocab/hint_model.hpp"

#include <gtest/gtest.h>

#include <deque>

using json = nlohmann::json;
using mcp_hints::ToolHints;
using mcp_hints::Vocabulary;

namespace {

// Claims point into the tool they were read from: keep every tool alive for the test's run.
ToolHints hints(const json& tool, const std::string& rev = "2025-11-25") {
  static std::deque<json> kept;
  kept.push_back(tool);
  return mcp_hints::read_tool_hints(kept.back(), Vocabulary::builtin(), rev);
}

const Vocabulary& vocab() { return Vocabulary::builtin(); }

}  // namespace

TEST(HintModel, NoHintsMeansNoClaimsButTheSpecificationDefaults) {
  auto h = hints(json{{"name", "t"}});
  EXPECT_TRUE(h.asserted("effect").empty());
  EXPECT_TRUE(h.asserted("open-world").empty());
  for (const auto& c : h.claims) EXPECT_TRUE(c.defaulted) << c.facet;
  // The cautious defaults: not read-only, destructive, not idempotent, open world.
  EXPECT_EQ(h.resolved("effect", vocab()), json("delete"));
  EXPECT_EQ(h.resolved("open-world", vocab()), json(true));
  EXPECT_EQ(h.resolved("idempotent", vocab()), json(false));
  EXPECT_EQ(h.resolved("confirmation", vocab()), std::nullopt);  // absence is no claim
  EXPECT_EQ(h.resolved("agency", vocab()), std::nullopt);
}

TEST(HintModel, ReadOnlyMakesDestructiveAndIdempotentMeaningless) {
  auto h = hints(json{{"annotations", {{"readOnlyHint", true}, {"destructiveHint", true}, {"idempotentHint", false}}}});
  EXPECT_EQ(h.claim_of("spec", "destructiveHint"), nullptr);
  EXPECT_EQ(h.claim_of("spec", "idempotentHint"), nullptr);
  EXPECT_EQ(h.resolved("effect", vocab()), json("read"));
}

TEST(HintModel, EveryClaimRemembersItsSource) {
  auto h = hints(json{{"annotations", {{"category", "destroy"}}}, {"_meta", {{"mcp.dev/effect", "write"}}}});
  const auto* c = h.asserting("effect", "delete");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->source.revision->ref(), "risk-metadata@sep-2793");
  EXPECT_EQ(c->source.field->key, "category");
  EXPECT_EQ(c->source.pointer(), "/annotations/category");
  EXPECT_EQ(*c->source.raw, "destroy");
  EXPECT_EQ(mcp_hints::describe_source(c->source), "annotations.category (risk-metadata@sep-2793)");
  const auto* w = h.asserting("effect", "write");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(mcp_hints::describe_source(w->source), "_meta[\"mcp.dev/effect\"] (policy-hints@seed)");
}

TEST(HintModel, TheMostCautiousAssertedClaimWinsOverDefaults) {
  // read-only by the spec, but the risk category says delete: the resolved effect is delete.
  auto h = hints(json{{"annotations", {{"readOnlyHint", true}, {"category", "delete"}}}});
  EXPECT_EQ(h.resolved("effect", vocab()), json("delete"));
  // openWorldHint false asserted beats the default true.
  auto closed = hints(json{{"annotations", {{"openWorldHint", false}}}});
  EXPECT_EQ(closed.resolved("open-world", vocab()), json(false));
  // requiresConfirmation false and approvalRecommendation multi: multi.
  auto conf = hints(json{{"annotations", {{"approvalRecommendation", "multi"}}},
                         {"_meta", {{"mcp.dev/requiresConfirmation", false}}}});
  EXPECT_EQ(conf.resolved("confirmation", vocab()), json("multi"));
  // minTrustLevel: the highest.
  auto trust = hints(json{{"annotations", {{"minTrustLevel", 4}}}});
  EXPECT_EQ(trust.resolved("min-trust", vocab()), json(4));
}

TEST(HintModel, MalformedValuesAreAbsentNeverSafe) {
  // readOnlyHint "yes" is unreadable: the tool is not taken as read-only, the defaults stand.
  auto h = hints(
      json{{"annotations", {{"readOnlyHint", "yes"}, {"riskLevel", "extreme"}}}, {"_meta", {{"mcp.dev/effect", 3}}}});
  EXPECT_EQ(h.unread.size(), 3u);
  EXPECT_TRUE(h.asserted("effect").empty());
  EXPECT_EQ(h.resolved("effect", vocab()), json("delete"));
  EXPECT_EQ(h.resolved("risk", vocab()), std::nullopt);
  // A set with one unknown class is not half-believed.
  auto set = hints(json{
      {"annotations", {{"returnMetadata", {{"Source", "System"}, {"Sensitivity", json::array({"PII", "Secret"})}}}}}});
  EXPECT_TRUE(set.asserted("result-data").empty());
  EXPECT_EQ(set.unread.size(), 1u);
  // The strings "true" and "false" are not booleans, nor "1" a number (found by the
  // robustness.malformed-hints certification scenario).
  auto strings = hints(
      json{{"annotations",
            {{"readOnlyHint", "true"}, {"destructiveHint", "false"}, {"agencyHint", "true"}, {"minTrustLevel", 2}}},
           {"_meta", {{"mcp.dev/idempotent", "true"}}}});
  EXPECT_TRUE(strings.asserted("effect").empty());
  EXPECT_TRUE(strings.asserted("agency").empty());
  EXPECT_TRUE(strings.asserted("idempotent").empty());
  EXPECT_EQ(strings.unread.size(), 4u);
  EXPECT_EQ(strings.resolved("effect", vocab()), json("delete"));
  EXPECT_EQ(strings.resolved("min-trust", vocab()), json(2));  // a real number is still read
}

TEST(HintModel, SetValuedFieldsClaimEachClass) {
  auto h = hints(json{
      {"annotations",
       {{"inputMetadata",
         {{"Destination", "Public"}, {"Sensitivity", json::array({"PII", "User"})}, {"Outcomes", "Irreversible"}}}}}});
  EXPECT_EQ(h.asserted("input-data").size(), 2u);
  EXPECT_EQ(h.resolved("input-data", vocab()), json::array({"pii", "user"}));
  EXPECT_EQ(h.resolved("destination", vocab()), json("public"));
  EXPECT_EQ(h.resolved("outcome", vocab()), json("irreversible"));
  auto side = hints(json{{"annotations", {{"sideEffects", json::array({"state_loss", "paging"})}}}});
  EXPECT_EQ(side.resolved("side-effects", vocab()), json::array({"state_loss", "paging"}));
}

TEST(HintModel, AnyJsonValueIsAcceptedAsATool) {
  for (const auto& v :
       {json(nullptr), json(3), json("x"), json::array({1}), json{{"annotations", 5}}, json{{"_meta", "x"}}}) {
    EXPECT_NO_THROW(hints(v)) << v.dump();
  }
}

TEST(HintModel, TrustAnnotationsAreMessageFieldsNotToolHints) {
  auto h = hints(json{{"_meta", {{"annotations", {{"sensitiveHint", "high"}}}}}});
  for (const auto& c : h.claims) EXPECT_NE(c.source.field->vocabulary, "trust-annotations");
}
