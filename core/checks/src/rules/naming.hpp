#pragma once
// The name against the hints: a tool named for what it does is not declared to do less.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>
#include <string>

#include "mcp_hints/json/member.hpp"
#include "mcp_hints/vocab/infer.hpp"
#include "support.hpp"

namespace mcp_hints::rules::naming {

// The name's action verb against the declared effect: a tool whose verb deletes ("delete_x",
// "acme_delete_x", "issue_delete") declared read-only or non-destructive, one whose verb writes or
// sends ("createIssue", "acme-post-message") declared read-only. The verb is found wherever a vendor
// prefix or the object puts it (schemas/verbs.json); a name without one never fires.
inline void contradicts_name(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = ctx.hints.asserted("effect");
  const std::string* name = string_member(ctx.tool, "name");
  if (claims.empty() || !name) return;
  // What the hints together say: their most cautious effect. A tool declared to delete contradicts
  // no name, so its name is not read.
  const auto declared = ctx.hints.resolved("effect", ctx.vocabulary);
  if (!declared || text_is(*declared, "delete")) return;
  const Inference inference = classify_name(*name, false);
  if (!inference.strong || inference.verb_class == "read") return;
  const bool reads_only = text_is(*declared, "read");
  const bool denies_delete = inference.verb_class == "delete";
  if (!reads_only && !denies_delete) return;
  std::string evidence;  // the name's evidence, written only for a finding
  for (const Claim* c : claims) {
    // readOnlyHint false says "not read-only", nothing about deleting.
    if (!text_is(c->value, "read") && (!text_is(c->value, "write") || c->source.field->key == "readOnlyHint")) continue;
    if (evidence.empty()) evidence = classify_name(*name).name_evidence;
    sink.report(c->source.pointer(), evidence + " but " + said(*c) + " says the tool " +
                                         (text_is(c->value, "read") ? "only reads" : "does not delete") +
                                         ": check the hint, or rename the tool");
  }
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"infer.contradicts-name", Level::info, "SEP-2793 reference implementation: inference from verb classes",
      "a tool whose name's verb (after any vendor prefix, or after the object) deletes, writes or sends is not "
      "declared read-only (nor, for delete, non-destructive)"},
     &contradicts_name},
});

}  // namespace mcp_hints::rules::naming
