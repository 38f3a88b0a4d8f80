#pragma once
// Claims that understate what the tool's other claims show: its risk, its reach (a closed world), the
// sensitivity of its results.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>
#include <string>

#include "support.hpp"

namespace mcp_hints::rules::understated {

inline void risk_understated(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* low = ctx.hints.asserting("risk", "low");
  if (!low) return;
  const Claim* category = ctx.hints.claim_of("risk-metadata", "category");
  if (category && *category->source.raw == "destroy")
    sink.report(low->source.pointer(),
                "riskLevel is low but " + said(*category) + " destroys: expected high or critical");
  if (const Claim* wide = first_of(ctx.hints, "blast-radius", {"organization", "global"}))
    sink.report(low->source.pointer(), "riskLevel is low but " + said(*wide) +
                                           " reaches a whole organization or more: expected medium or higher");
}

inline void open_world_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* closed = ctx.hints.claim_of("spec", "openWorldHint");
  if (!closed || closed->value != false) return;
  if (const Claim* c = ctx.hints.asserting("effect", "external"))
    sink.report(c->source.pointer(),
                "openWorldHint is false (closed domain) but " + said(*c) + " acts on external systems");
  if (const Claim* c = ctx.hints.asserting("destination", "public"))
    sink.report(c->source.pointer(), "openWorldHint is false (closed domain) but " + said(*c) +
                                         " sends input to publicly accessible systems");
}

inline void result_sensitivity_understated(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* level = ctx.hints.claim_of("policy-hints", "mcp.dev/resultSensitivity");
  if (!level) return;
  const auto& scale = ctx.vocabulary.facet("result-sensitivity");
  for (const Claim* data : ctx.hints.asserted("result-data")) {
    auto minimum = ctx.vocabulary.minimum_result_sensitivity(data->value.get<std::string>());
    if (minimum && scale.rank(level->value) < scale.rank(*minimum))
      sink.report(level->source.pointer(), "mcp.dev/resultSensitivity is " + shown(level->value) + " but " +
                                               said(*data) + " returns " + data->value.get<std::string>() +
                                               " data, which is never less than " + *minimum);
  }
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"risk.understated", Level::warning,
      "mcp-hints rule (declarations agree); SEP-2793: riskLevel, category, blastRadius",
      "riskLevel low is not given to a destroy category or an organization or global blast radius"},
     &risk_understated},
    {{"open-world.contradiction", Level::warning,
      "mcp-hints rule (declarations agree); MCP specification: openWorldHint; proposal 1: effect; Action Security: "
      "Destination",
      "openWorldHint false is not given to a tool with effect external or Destination Public"},
     &open_world_contradiction},
    {{"sensitivity.result-understated", Level::warning,
      "mcp-hints rule (declarations agree); proposal 1: resultSensitivity; Action Security: returnMetadata.Sensitivity",
      "resultSensitivity public is not given to a tool returning PII, Financial, Credentials or Regulated data"},
     &result_sensitivity_understated},
});

}  // namespace mcp_hints::rules::understated
