#pragma once
// Confirmation: a destructive tool asks for it, and its hints agree on whether to.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>
#include <string>

#include "support.hpp"

namespace mcp_hints::rules::confirmation {

inline void confirmation_missing(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* trigger = nullptr;
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;  // destructiveHint alone is the spec's default reading
    if ((c.facet == "effect" && text_is(c.value, "delete")) ||
        (c.facet == "outcome" && text_is(c.value, "irreversible")) ||
        (c.facet == "risk" && text_is(c.value, "critical"))) {
      trigger = &c;
      break;
    }
  }
  if (!trigger || first_of(ctx.hints, "confirmation", {"single", "multi"})) return;
  const Claim* declined = ctx.hints.asserting("confirmation", "none");
  sink.report(declined ? declined->source.pointer() : "/_meta",
              said(*trigger) + " marks the tool destructive, but " +
                  (declined ? said(*declined) : std::string("no confirmation is declared")) +
                  "; expected mcp.dev/requiresConfirmation true or approvalRecommendation single or multi");
}

inline void confirmation_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* none = ctx.hints.asserting("confirmation", "none");
  const Claim* some = first_of(ctx.hints, "confirmation", {"single", "multi"});
  if (none && some)
    sink.report(none->source.pointer(), said(*none) + " asks for no confirmation but " + said(*some) + " asks for it");
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"confirmation.missing-for-destructive", Level::warning,
      "proposal 1: Use cases (destructive tools declare requiresConfirmation)",
      "a delete effect, destroy category, Irreversible outcome or critical risk comes with a declared confirmation"},
     &confirmation_missing},
    {{"confirmation.contradiction", Level::warning,
      "mcp-hints rule (declarations agree); proposal 1: requiresConfirmation; SEP-2793: approvalRecommendation",
      "requiresConfirmation and approvalRecommendation agree on whether to confirm"},
     &confirmation_contradiction},
});

}  // namespace mcp_hints::rules::confirmation
