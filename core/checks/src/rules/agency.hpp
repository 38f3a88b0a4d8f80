#pragma once
// SEP-1938 agencyHint: an agentic, destructive tool declares a confirmation.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>

#include "support.hpp"

namespace mcp_hints::rules::agency {

inline void agency_destructive_unconfirmed(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* agency = ctx.hints.asserting("agency", true);
  const Claim* destructive = ctx.hints.asserting("effect", "delete");
  if (!agency || !destructive || first_of(ctx.hints, "confirmation", {"single", "multi"})) return;
  sink.report(agency->source.pointer(), "agencyHint is true and " + said(*destructive) +
                                            ": an agentic, destructive tool is a candidate for stricter "
                                            "human-in-the-loop control, yet no confirmation is declared");
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"agency.destructive-unconfirmed", Level::info, "SEP-1938: Guidance for clients",
      "an agentic tool with a destructive effect declares a confirmation"},
     &agency_destructive_unconfirmed},
});

}  // namespace mcp_hints::rules::agency
