#include "mcp_hints/conformance/policy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

using json = nlohmann::json;
using mcp_hints::Decision;
using mcp_hints::SessionPolicy;
using Action = Decision::Action;

namespace {

// Claims point into their tool: keep every tool alive for the test's run.
mcp_hints::ToolHints hints(json annotations, json meta = json::object()) {
  static std::deque<json> kept;
  json tool = {{"name", "t"}, {"inputSchema", {{"type", "object"}}}};
  if (!annotations.is_null()) tool["annotations"] = std::move(annotations);
  if (!meta.empty()) tool["_meta"] = std::move(meta);
  kept.push_back(std::move(tool));
  return mcp_hints::read_tool_hints(kept.back(), mcp_hints::Vocabulary::builtin(), "2025-11-25");
}

json result_with(json annotations) {
  return {{"content", json::array()}, {"_meta", {{"annotations", std::move(annotations)}}}};
}

const json kReadOnly = {{"readOnlyHint", true}};

}  // namespace

TEST(Policy, EveryVocabularyCanAskForConfirmation) {
  SessionPolicy policy;
  struct Case {
    json annotations, meta;
    int confirmations;
  };
  const std::vector<Case> cases = {
      {kReadOnly, {{"mcp.dev/requiresConfirmation", true}}, 1},
      {{{"readOnlyHint", false}, {"destructiveHint", true}}, json::object(), 1},
      {{{"readOnlyHint", true}, {"approvalRecommendation", "single"}}, json::object(), 1},
      {{{"readOnlyHint", true}, {"approvalRecommendation", "multi"}}, json::object(), 2},
      {{{"readOnlyHint", true},
        {"inputMetadata", {{"Destination", "Internal"}, {"Sensitivity", "None"}, {"Outcomes", "Irreversible"}}}},
       json::object(),
       1},
      {{{"readOnlyHint", true}, {"riskLevel", "critical"}}, json::object(), 1},
      {{{"readOnlyHint", true}, {"minTrustLevel", 5}}, json::object(), 1},
      {{{"agencyHint", true}, {"destructiveHint", true}}, json::object(), 1},
  };
  for (const auto& c : cases) {
    const auto d = policy.before_call(hints(c.annotations, c.meta));
    EXPECT_EQ(d.action, Action::confirm) << c.annotations.dump() << c.meta.dump();
    EXPECT_EQ(d.confirmations, c.confirmations) << c.annotations.dump();
    EXPECT_FALSE(d.reasons.empty());
  }
}

TEST(Policy, DoesNotOverPromptReadOnlyToolsAndFallsBackToCautiousDefaults) {
  SessionPolicy policy;
  EXPECT_EQ(policy.before_call(hints(kReadOnly)).action, Action::allow);
  EXPECT_EQ(policy.before_call(hints({{"readOnlyHint", true}, {"openWorldHint", true}})).action, Action::allow);
  EXPECT_EQ(policy.before_call(hints({{"readOnlyHint", false}, {"destructiveHint", false}})).action, Action::allow);
  const auto none = policy.before_call(hints(json()));
  EXPECT_EQ(none.action, Action::confirm);
  EXPECT_NE(none.reasons[0].find("no hints"), std::string::npos);
  // readOnlyHint false alone: the specification's destructiveHint default (true) applies, even
  // when another vocabulary says it only writes.
  for (const json& meta : {json::object(), json{{"mcp.dev/effect", "write"}}}) {
    const auto defaulted = policy.before_call(hints({{"readOnlyHint", false}}, meta));
    EXPECT_EQ(defaulted.action, Action::confirm) << meta.dump();
    EXPECT_NE(defaulted.reasons[0].find("destructiveHint absent"), std::string::npos) << defaulted.reasons[0];
  }
  EXPECT_EQ(policy.before_call(hints({{"destructiveHint", false}})).action, Action::allow);
  // Malformed values are absent, never safe: "yes" is not read-only.
  EXPECT_EQ(policy.before_call(hints({{"readOnlyHint", "yes"}})).action, Action::confirm);
  EXPECT_EQ(policy.before_call(hints({{"readOnlyHint", true}, {"approvalRecommendation", "maybe"}})).action,
            Action::allow);
}

TEST(Policy, PropagatesTrustAnnotationsAtTheSameOrAHigherLevel) {
  SessionPolicy policy;
  EXPECT_TRUE(policy.request_annotations().empty());
  policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", "medium"}, {"attribution", {"repo://a"}}}));
  EXPECT_EQ(policy.request_annotations()["sensitiveHint"], "medium");
  policy.after_result(hints(kReadOnly),
                      result_with({{"sensitiveHint", "low"}, {"privateHint", true}, {"attribution", {"file://b"}}}));
  EXPECT_EQ(policy.request_annotations()["sensitiveHint"], "medium");  // never lowered
  EXPECT_EQ(policy.request_annotations()["privateHint"], true);
  policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", "extreme"}, {"privateHint", false}}));
  EXPECT_EQ(policy.request_annotations()["sensitiveHint"], "medium");  // malformed: ignored
  EXPECT_EQ(policy.request_annotations()["privateHint"], true);        // false does not clear it
  policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", "high"}, {"openWorldHint", true}}));
  const json a = policy.request_annotations();
  EXPECT_EQ(a["sensitiveHint"], "high");
  EXPECT_EQ(a["openWorldHint"], true);
  EXPECT_EQ(a["attribution"], json({"file://b", "repo://a"}));  // a union
  EXPECT_TRUE(SessionPolicy().request_annotations().empty());   // a new session starts clean
}

TEST(Policy, SensitiveDataInContextNeverLeavesSilently) {
  const json public_destination = {
      {"readOnlyHint", false},
      {"destructiveHint", false},
      {"inputMetadata", {{"Destination", "Public"}, {"Sensitivity", "None"}, {"Outcomes", "Consequential"}}}};
  SessionPolicy clean;
  EXPECT_EQ(
      clean.before_call(hints({{"readOnlyHint", false}, {"destructiveHint", false}, {"openWorldHint", false}})).action,
      Action::allow);

  SessionPolicy tainted;
  tainted.after_result(hints(kReadOnly), result_with({{"sensitiveHint", "high"}}));
  EXPECT_TRUE(tainted.sensitive_context());
  EXPECT_EQ(tainted.before_call(hints(public_destination)).action, Action::block);
  EXPECT_EQ(
      tainted
          .before_call(hints({{"readOnlyHint", false}, {"destructiveHint", false}}, {{"mcp.dev/effect", "external"}}))
          .action,
      Action::confirm);
  EXPECT_EQ(tainted.before_call(hints(kReadOnly)).action, Action::allow);

  SessionPolicy pii;  // the tool's declared return data taints the context too
  pii.after_result(hints({{"readOnlyHint", true}, {"returnMetadata", {{"Source", "User"}, {"Sensitivity", "PII"}}}}),
                   json::object());
  EXPECT_EQ(pii.before_call(hints(public_destination)).action, Action::block);

  SessionPolicy camel;  // SEP-1913's spelling says the same
  camel.after_result(
      hints({{"readOnlyHint", true}, {"returnMetadata", {{"source", "user"}, {"sensitivity", {"pii"}}}}}),
      json::object());
  EXPECT_EQ(camel
                .before_call(hints({{"readOnlyHint", false},
                                    {"destructiveHint", false},
                                    {"inputMetadata", {{"destination", {"internal", "public"}}}}}))
                .action,
            Action::block);

  // The interest group's extension: a content block's sensitive claim taints the context, and
  // untrusted data is carried on as openWorldHint.
  const std::string K = "io.modelcontextprotocol/trust-annotations";
  SessionPolicy extension;
  extension.after_result(
      hints(kReadOnly),
      {{"content", {{{"type", "text"}, {"_meta", {{K, {{"sensitive", true}, {"untrusted", true}}}}}}}}});
  EXPECT_TRUE(extension.sensitive_context());
  EXPECT_EQ(extension.request_annotations()["openWorldHint"], true);
  SessionPolicy no_claim;  // absence is no claim
  no_claim.after_result(hints(kReadOnly), {{"_meta", {{K, json::object()}}}});
  EXPECT_FALSE(no_claim.sensitive_context());
  EXPECT_TRUE(no_claim.request_annotations().empty());
}

TEST(Policy, MaliciousActivityIsEscalatedOnceAndGatesConsequentialCalls) {
  SessionPolicy policy;
  const json writer = {{"readOnlyHint", false}, {"destructiveHint", false}, {"openWorldHint", false}};
  EXPECT_EQ(policy.before_call(hints(writer)).action, Action::allow);
  policy.after_result(hints(kReadOnly), result_with({{"maliciousActivityHint", true}}));
  EXPECT_EQ(policy.take_escalations().size(), 1u);
  EXPECT_TRUE(policy.take_escalations().empty());
  EXPECT_EQ(policy.before_call(hints(writer)).action, Action::confirm);
  EXPECT_EQ(policy.before_call(hints(kReadOnly)).action, Action::allow);
  EXPECT_EQ(policy.request_annotations()["maliciousActivityHint"], true);
}

TEST(Policy, RetriesOnlyWhatIsSafeToRepeatAndOnlyABoundedNumberOfTimes) {
  SessionPolicy policy;  // three attempts
  const auto idempotent = hints({{"readOnlyHint", false}, {"destructiveHint", false}, {"idempotentHint", true}});
  EXPECT_TRUE(policy.may_retry(idempotent, 1));
  EXPECT_TRUE(policy.may_retry(idempotent, 2));
  EXPECT_FALSE(policy.may_retry(idempotent, 3));
  EXPECT_TRUE(policy.may_retry(hints(kReadOnly), 1));
  EXPECT_TRUE(policy.may_retry(hints(kReadOnly, {{"mcp.dev/idempotent", true}}), 1));
  EXPECT_FALSE(policy.may_retry(hints({{"readOnlyHint", false}, {"idempotentHint", false}}), 1));
  EXPECT_FALSE(policy.may_retry(hints(json(), {{"mcp.dev/idempotent", false}}), 1));
  // The two meanings disagree: not safe.
  EXPECT_FALSE(
      policy.may_retry(hints({{"readOnlyHint", false}, {"idempotentHint", false}}, {{"mcp.dev/idempotent", true}}), 1));
  EXPECT_FALSE(policy.may_retry(hints(json()), 1));  // no hints: the default is not idempotent
}

// #711 guards writes "when sensitiveHint is true": every level taints by default, true (#711's own
// spelling) as the lowest; a policy that raises the threshold taints from that level up, and a
// malformed level never taints.
TEST(Policy, EverySensitiveHintLevelFromTheThresholdUpTaintsTheContext) {
  const std::vector<std::string> levels = {"low", "medium", "high"};
  for (const std::string threshold : {"low", "medium", "high"}) {
    mcp_hints::PolicyConfig config;
    config.sensitive_from = threshold;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      SessionPolicy policy(config);
      policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", levels[i]}}));
      const bool at_or_above =
          i >= static_cast<std::size_t>(std::find(levels.begin(), levels.end(), threshold) - levels.begin());
      EXPECT_EQ(policy.sensitive_context(), at_or_above) << "threshold " << threshold << ", level " << levels[i];
    }
  }
  for (const auto& [value, from_low] : {std::pair{json(true), true}, {json(true), false}}) {
    mcp_hints::PolicyConfig config;
    config.sensitive_from = from_low ? "low" : "medium";
    SessionPolicy policy(config);
    policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", value}}));
    EXPECT_EQ(policy.sensitive_context(), from_low) << "true is the lowest level";
  }
  for (const json& malformed : {json("extreme"), json(false), json(3), json()}) {
    SessionPolicy policy;
    policy.after_result(hints(kReadOnly), result_with({{"sensitiveHint", malformed}}));
    EXPECT_FALSE(policy.sensitive_context()) << malformed;
  }
}
