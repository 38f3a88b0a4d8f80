#pragma once
// The specification's hints against the proposals' claims on the same tool: read-only, destructive, idempotent.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>

#include "mcp_hints/json/input.hpp"
#include "support.hpp"

namespace mcp_hints::rules::contradictions {

inline void readonly_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* ro = ctx.hints.claim_of("spec", "readOnlyHint");
  if (!ro || !text_is(ro->value, "read")) return;
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;
    const bool writes = c.facet == "effect" && (text_is(c.value, "write") || text_is(c.value, "delete"));
    const bool changes =
        c.facet == "outcome" && (text_is(c.value, "consequential") || text_is(c.value, "irreversible"));
    if (writes || changes)
      sink.report(c.source.pointer(), "readOnlyHint is true (the tool does not modify its environment) but " + said(c) +
                                          " says it " +
                                          (writes ? "writes or deletes" : "changes state with real consequences"));
  }
}

inline void destructive_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* d = ctx.hints.claim_of("spec", "destructiveHint");
  if (!d || !text_is(d->value, "write")) return;  // destructiveHint false: only additive updates
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;
    // Irreversibility alone is no contradiction: an additive update (sending an email) cannot be undone.
    if (c.facet == "effect" && text_is(c.value, "delete"))
      sink.report(c.source.pointer(),
                  "destructiveHint is false (only additive updates) but " + said(c) + " says the tool deletes");
  }
}

inline void readonly_and_destructive(const ToolContext& ctx, const FindingSink& sink) {
  const json* a = find_member(ctx.tool, {"annotations"});
  if (!a || !a->is_object()) return;
  // Compared, not read with value(): a member of another type must not throw.
  auto is_true = [&](std::string_view key) {
    const json* value = member(*a, key);
    return value && *value == true;
  };
  if (is_true("readOnlyHint") && is_true("destructiveHint"))
    sink.report("/annotations/destructiveHint",
                "readOnlyHint and destructiveHint are both true; destructiveHint is meaningful only when "
                "readOnlyHint is false, so clients ignore it: say which one is meant");
}

// Proposal 1's and the specification's idempotency claims, when both were made.
struct IdempotencyClaims {
  const Claim* proposal = nullptr;
  const Claim* spec = nullptr;
  bool differ(bool proposal_value) const {
    return proposal && spec && proposal->value == proposal_value && spec->value == !proposal_value;
  }
};

inline IdempotencyClaims idempotency_claims(const ToolContext& ctx) {
  return {ctx.hints.claim_of("policy-hints", "mcp.dev/idempotent"), ctx.hints.claim_of("spec", "idempotentHint")};
}

inline void idempotency_retry_unsafe(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = idempotency_claims(ctx);
  if (claims.differ(true))
    sink.report(claims.proposal->source.pointer(),
                "mcp.dev/idempotent is true (same input, same result) but idempotentHint is false (a repeated "
                "call has additional effects): a router retrying on mcp.dev/idempotent would repeat those effects");
}

inline void idempotency_meanings_differ(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = idempotency_claims(ctx);
  if (claims.differ(false))
    sink.report(claims.proposal->source.pointer(),
                "idempotentHint is true (no additional effect when repeated) and mcp.dev/idempotent is false "
                "(results may differ): consistent only because the two keys mean different things");
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"hints.readonly-contradiction", Level::warning,
      "mcp-hints rule (declarations agree); MCP specification: ToolAnnotations.readOnlyHint",
      "a read-only tool claims no writing or deleting effect and no consequential or irreversible outcome"},
     &readonly_contradiction},
    {{"hints.destructive-contradiction", Level::warning,
      "mcp-hints rule (declarations agree); MCP specification: ToolAnnotations.destructiveHint",
      "a tool with destructiveHint false claims no delete effect or category (an additive update that cannot be "
      "undone, such as sending an email, is consistent)"},
     &destructive_contradiction},
    {{"hints.readonly-and-destructive", Level::info, "MCP specification: ToolAnnotations.destructiveHint",
      "readOnlyHint and destructiveHint are not both true (the latter would be ignored)"},
     &readonly_and_destructive},
    {{"idempotency.retry-unsafe", Level::warning,
      "mcp-hints rule (declarations agree); proposal 1: idempotent; MCP specification: idempotentHint",
      "mcp.dev/idempotent is not true where idempotentHint says repeated calls have effects"},
     &idempotency_retry_unsafe},
    {{"idempotency.meanings-differ", Level::info, "proposal 1: idempotent; MCP specification: idempotentHint",
      "notes where idempotentHint and mcp.dev/idempotent differ only because they mean different things"},
     &idempotency_meanings_differ},
});

}  // namespace mcp_hints::rules::contradictions
