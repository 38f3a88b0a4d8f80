#pragma once
// The schema checks: one per vocabulary, each tool against the schema of its active revision.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>
#include <vector>

#include "mcp_hints/json/input.hpp"
#include "support.hpp"

namespace mcp_hints::rules::schema {

// The revisions of a vocabulary a tool is validated against: the chosen one for the
// specification; else the pinned one if the tool has any of the vocabulary's keys; else every
// revision whose keys it carries; else, for a container the tool has but no known key of any
// revision explains (inputMetadata with unknown members), the vocabulary's only tool revision.
inline std::vector<const VocabularyRevision*> revisions_to_validate(const ToolContext& ctx,
                                                                    std::string_view vocabulary) {
  if (vocabulary == "spec") return {&ctx.spec};
  // Whether the tool mentions the vocabulary is asked only where the answer depends on it: a
  // catalog's every tool asks this of every vocabulary.
  const auto mentioned = [&] { return ctx.vocabulary.mentions(ctx.located, vocabulary); };
  for (const auto* pin : ctx.pinned)
    if (pin->id == vocabulary)
      return mentioned() ? std::vector<const VocabularyRevision*>{pin} : std::vector<const VocabularyRevision*>{};
  std::vector<const VocabularyRevision*> out;
  for (const auto* r : ctx.detected)
    if (r->id == vocabulary) out.push_back(r);
  if (!out.empty() || !ctx.detected.empty() || !mentioned()) return out;
  const VocabularyRevision* only = nullptr;
  for (const auto& r : ctx.vocabulary.revisions()) {
    if (r.id != vocabulary || r.scope == "message") continue;
    if (only) return out;
    only = &r;
  }
  if (only) out.push_back(only);
  return out;
}

template <const std::string_view& Vocabulary>
void schema_check(const ToolContext& ctx, const FindingSink& sink) {
  // Every proposal field is optional, so a tool that carries none of a proposal's members cannot
  // break its schema (a tool or container of the wrong type is the specification schema's
  // finding): such a tool is not validated.
  for (const auto* rev : revisions_to_validate(ctx, Vocabulary)) {
    for (const auto& v : ctx.schemas.validate(rev->schema, ctx.tool)) {
      std::string message = v.message;
      if (!message.empty() && message.back() == '.') message.pop_back();
      const json* value = nullptr;
      try {
        value = &ctx.tool.at(json::json_pointer(v.pointer));
      } catch (const json::exception&) {
      }
      std::string where = v.pointer.empty() ? "the tool" : v.pointer;
      const bool about_name = message.rfind("the member name", 0) == 0;
      sink.report(v.pointer, where + " does not match " + rev->ref() + ": " + message +
                                 (value && !v.pointer.empty() && !about_name ? " (seen " + shown(*value) + ")" : ""));
    }
  }
}

inline constexpr std::string_view kSpec = "spec";
inline constexpr std::string_view kPolicyHints = "policy-hints";
inline constexpr std::string_view kRiskMetadata = "risk-metadata";
inline constexpr std::string_view kActionSecurity = "action-security";
inline constexpr std::string_view kAgencyHint = "agency-hint";
inline constexpr std::string_view kTrustAnnotations = "trust-annotations";
inline constexpr std::string_view kActionMetadata = "action-metadata";

inline constexpr auto kChecks = std::to_array<Check>({
    {{"schema.spec-tool", Level::warning,
      "mcp-hints rule (well-formed hints); MCP specification (chosen revision): Tool, ToolAnnotations, _meta key names",
      "the tool matches the specification's Tool schema"},
     &schema_check<kSpec>},
    {{"schema.policy-hints", Level::warning,
      "mcp-hints rule (well-formed hints); proposal 1 (policy hints): Proposed hints",
      "mcp.dev/* keys in _meta have the proposal's types and values"},
     &schema_check<kPolicyHints>},
    {{"schema.risk-metadata", Level::warning, "mcp-hints rule (well-formed hints); SEP-2793: What it adds",
      "riskLevel, category, blastRadius, reversibility, sideEffects, approvalRecommendation, minTrustLevel are "
      "well-typed"},
     &schema_check<kRiskMetadata>},
    {{"schema.action-security", Level::warning,
      "mcp-hints rule (well-formed hints); Action Security Metadata: Specification; Appendix",
      "inputMetadata and returnMetadata have the proposal's keys and values"},
     &schema_check<kActionSecurity>},
    {{"schema.agency-hint", Level::warning, "mcp-hints rule (well-formed hints); SEP-1938: New annotation",
      "agencyHint is a boolean"},
     &schema_check<kAgencyHint>},
    {{"schema.trust-annotations", Level::warning,
      "mcp-hints rule (well-formed hints); SEP-1913: ToolAnnotations inputMetadata and returnMetadata",
      "SEP-1913's camelCase inputMetadata and returnMetadata have its keys and lowercase values"},
     &schema_check<kTrustAnnotations>},
    {{"schema.action-metadata", Level::warning,
      "mcp-hints rule (well-formed hints); interest group extension io.modelcontextprotocol/action-metadata",
      "_meta[\"io.modelcontextprotocol/action-metadata\"] has the extension's members and values"},
     &schema_check<kActionMetadata>},
});

}  // namespace mcp_hints::rules::schema
