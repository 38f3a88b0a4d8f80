#include "mcp_hints/checks/checks.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "mcp_hints/vocab/infer.hpp"
#include "mcp_hints/json/input.hpp"

namespace mcp_hints {
namespace {

using json = nlohmann::json;

// A value as a message shows it: compact JSON, cut short when long.
std::string shown(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

// "annotations.category (risk-metadata@sep-2793) = \"destroy\""
std::string said(const Claim& claim) { return describe_source(claim.source) + " = " + shown(*claim.source.raw); }

const Claim* first_of(const ToolHints& hints, std::string_view facet, std::initializer_list<json> values) {
  for (const auto& v : values)
    if (const auto* c = hints.asserting(facet, v)) return c;
  return nullptr;
}

bool is_spec(const Claim& c) { return c.source.field->vocabulary == "spec"; }

// ---- schema checks: one per vocabulary, against the schema of its active revision ----------

// The revisions of a vocabulary a tool is validated against: the chosen one for the
// specification; else the pinned one if the tool has any of the vocabulary's keys; else every
// revision whose keys it carries; else, for a container the tool has but no known key of any
// revision explains (inputMetadata with unknown members), the vocabulary's only tool revision.
std::vector<const VocabularyRevision*> revisions_to_validate(const ToolContext& ctx, std::string_view vocabulary) {
  if (vocabulary == "spec") return {&ctx.vocabulary.active_revision("spec", ctx.spec_revision)};
  const bool mentioned = ctx.vocabulary.mentions(ctx.tool, vocabulary);
  for (const auto* pin : ctx.pinned)
    if (pin->id == vocabulary) return mentioned ? std::vector<const VocabularyRevision*>{pin} : std::vector<const VocabularyRevision*>{};
  std::vector<const VocabularyRevision*> out;
  for (const auto* r : ctx.detected)
    if (r->id == vocabulary) out.push_back(r);
  if (!out.empty() || !mentioned || !ctx.detected.empty()) return out;
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

// ---- vocabulary revisions ------------------------------------------------------------------

// The keys of a revision a tool carries, for messages ("inputMetadata.Destination, ...").
std::string keys_used(const ToolContext& ctx, const VocabularyRevision& rev) {
  std::string out;
  for (const auto* f : ctx.vocabulary.fields_of(rev))
    if (!f->is_message_field && find_member(ctx.tool, f->tokens)) out += (out.empty() ? "" : ", ") + f->key;
  return out;
}

const VocabularyRevision* superseding(const ToolContext& ctx, const VocabularyRevision& rev) {
  for (const auto& r : ctx.vocabulary.revisions())
    for (const auto& old : r.supersedes)
      if (old == rev.ref()) return &r;
  return nullptr;
}

// The name's strong evidence (its first word is a verb) against the declared effect: a
// delete_* tool declared read-only or non-destructive, a send_* or update_* one declared
// read-only. Weak evidence (a verb later in the name) never fires.
void contradicts_name(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = ctx.hints.asserted("effect");
  if (claims.empty() || !ctx.tool.is_object() || !ctx.tool.contains("name") || !ctx.tool["name"].is_string()) return;
  const Inference inference = classify_name(ctx.tool["name"].get<std::string>());
  if (!inference.strong || inference.verb_class == "read") return;
  // What the hints together say: their most cautious effect.
  const auto declared = ctx.hints.resolved("effect", ctx.vocabulary);
  const bool reads_only = declared && *declared == "read";
  const bool denies_delete = inference.verb_class == "delete" && declared && *declared != "delete";
  if (!reads_only && !denies_delete) return;
  for (const Claim* c : claims) {
    // readOnlyHint false says "not read-only", nothing about deleting.
    if (c->value != "read" && (c->value != "write" || c->source.field->key == "readOnlyHint")) continue;
    sink.report(c->source.pointer(), "the name starts with '" + inference.verb + "' (" + inference.verb_class + " verbs) but " +
                                         said(*c) + " says the tool " + (c->value == "read" ? "only reads" : "does not delete") +
                                         ": check the hint, or rename the tool");
  }
}

void vocab_mixed_revisions(const ToolContext& ctx, const FindingSink& sink) {
  for (const auto* rev : ctx.detected)
    for (const auto* other : ctx.detected)
      if (other != rev && superseding(ctx, *rev) == other)
        sink.report("", "the tool mixes " + rev->ref() + " (" + keys_used(ctx, *rev) + ") with " + other->ref() + " (" +
                            keys_used(ctx, *other) + "), which replaced it: a client reading one may miss the other; "
                            "translating it into " + other->ref() + " (mcp-hints translate) rewrites the tool in one");
}

void vocab_pinned_revision(const ToolContext& ctx, const FindingSink& sink) {
  for (const auto* pin : ctx.pinned)
    for (const auto* rev : ctx.detected) {
      const bool related = rev != pin && (rev->id == pin->id || superseding(ctx, *rev) == pin || superseding(ctx, *pin) == rev);
      if (related)
        sink.report("", "the catalog is pinned to " + pin->ref() + " but the tool uses " + rev->ref() + " (" +
                            keys_used(ctx, *rev) + ")");
    }
}

constexpr std::string_view kSpec = "spec";
constexpr std::string_view kPolicyHints = "policy-hints";
constexpr std::string_view kRiskMetadata = "risk-metadata";
constexpr std::string_view kActionSecurity = "action-security";
constexpr std::string_view kAgencyHint = "agency-hint";
constexpr std::string_view kTrustAnnotations = "trust-annotations";
constexpr std::string_view kActionMetadata = "action-metadata";

// ---- consistency across vocabularies ----------------------------------------------------------

void readonly_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* ro = ctx.hints.claim_of("spec", "readOnlyHint");
  if (!ro || ro->value != "read") return;
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;
    const bool writes = c.facet == "effect" && (c.value == "write" || c.value == "delete");
    const bool changes = c.facet == "outcome" && (c.value == "consequential" || c.value == "irreversible");
    if (writes || changes)
      sink.report(c.source.pointer(), "readOnlyHint is true (the tool does not modify its environment) but " +
                                        said(c) + " says it " +
                                        (writes ? "writes or deletes" : "changes state with real consequences"));
  }
}

void destructive_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* d = ctx.hints.claim_of("spec", "destructiveHint");
  if (!d || d->value != "write") return;  // destructiveHint false: only additive updates
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;
    if ((c.facet == "effect" && c.value == "delete") || (c.facet == "reversibility" && c.value == "none"))
      sink.report(c.source.pointer(), "destructiveHint is false (only additive updates) but " + said(c) +
                                        " says the tool deletes or cannot be undone");
  }
}

void readonly_and_destructive(const ToolContext& ctx, const FindingSink& sink) {
  const json* a = find_member(ctx.tool, {"annotations"});
  if (!a || !a->is_object()) return;
  // Compared, not read with value(): a member of another type must not throw.
  auto is_true = [&](const char* key) {
    auto it = a->find(key);
    return it != a->end() && *it == true;
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

IdempotencyClaims idempotency_claims(const ToolContext& ctx) {
  return {ctx.hints.claim_of("policy-hints", "mcp.dev/idempotent"), ctx.hints.claim_of("spec", "idempotentHint")};
}

void idempotency_retry_unsafe(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = idempotency_claims(ctx);
  if (claims.differ(true))
    sink.report(claims.proposal->source.pointer(),
                "mcp.dev/idempotent is true (same input, same result) but idempotentHint is false (a repeated "
                "call has additional effects): a router retrying on mcp.dev/idempotent would repeat those effects");
}

void idempotency_meanings_differ(const ToolContext& ctx, const FindingSink& sink) {
  const auto claims = idempotency_claims(ctx);
  if (claims.differ(false))
    sink.report(claims.proposal->source.pointer(),
                "idempotentHint is true (no additional effect when repeated) and mcp.dev/idempotent is false "
                "(results may differ): consistent only because the two keys mean different things");
}

void confirmation_missing(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* trigger = nullptr;
  for (const auto& c : ctx.hints.claims) {
    if (c.defaulted || is_spec(c)) continue;  // destructiveHint alone is the spec's default reading
    if ((c.facet == "effect" && c.value == "delete") || (c.facet == "outcome" && c.value == "irreversible") ||
        (c.facet == "risk" && c.value == "critical")) {
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

void confirmation_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* none = ctx.hints.asserting("confirmation", "none");
  const Claim* some = first_of(ctx.hints, "confirmation", {"single", "multi"});
  if (none && some)
    sink.report(none->source.pointer(), said(*none) + " asks for no confirmation but " + said(*some) + " asks for it");
}

void risk_understated(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* low = ctx.hints.asserting("risk", "low");
  if (!low) return;
  const Claim* category = ctx.hints.claim_of("risk-metadata", "category");
  if (category && *category->source.raw == "destroy")
    sink.report(low->source.pointer(), "riskLevel is low but " + said(*category) + " destroys: expected high or critical");
  if (const Claim* wide = first_of(ctx.hints, "blast-radius", {"organization", "global"}))
    sink.report(low->source.pointer(),
                "riskLevel is low but " + said(*wide) + " reaches a whole organization or more: expected medium or higher");
}

void open_world_contradiction(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* closed = ctx.hints.claim_of("spec", "openWorldHint");
  if (!closed || closed->value != false) return;
  if (const Claim* c = ctx.hints.asserting("effect", "external"))
    sink.report(c->source.pointer(), "openWorldHint is false (closed domain) but " + said(*c) + " acts on external systems");
  if (const Claim* c = ctx.hints.asserting("destination", "public"))
    sink.report(c->source.pointer(), "openWorldHint is false (closed domain) but " + said(*c) +
                                       " sends input to publicly accessible systems");
}

void result_sensitivity_understated(const ToolContext& ctx, const FindingSink& sink) {
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

// _meta prefixes: 2025-06-18 reserves any prefix with mcp or modelcontextprotocol in a label
// other than the last; 2025-11-25 and later reserve those whose second label is one of them.
// _meta keys a vocabulary of the crosswalk defines: they are what proposals ask servers to send.
bool is_vocabulary_key(const Vocabulary& vocabulary, const std::string& key) {
  const std::string pointer = "/_meta/" + escape_pointer_token(key);
  return std::any_of(vocabulary.fields().begin(), vocabulary.fields().end(),
                     [&](const Field& f) { return f.pointer_text == pointer; });
}

void meta_reserved_prefix(const ToolContext& ctx, const FindingSink& sink) {
  if (!ctx.tool.is_object()) return;
  auto meta = ctx.tool.find("_meta");
  if (meta == ctx.tool.end() || !meta->is_object()) return;
  const auto& rule = ctx.vocabulary.active_revision("spec", ctx.spec_revision).meta_reservation;
  for (const auto& [key, value] : meta->items()) {
    if (!meta_key_reserved(rule, key)) continue;
    // MCP's own extensions live under its reserved prefix by right.
    const auto& revisions = ctx.vocabulary.revisions();
    if (std::any_of(revisions.begin(), revisions.end(), [&](const auto& r) { return r.extension == key; })) continue;
    const std::string why = rule == "any-label" ? "mcp or modelcontextprotocol before its last label"
                                                : "mcp or modelcontextprotocol as its second label";
    sink.report("/_meta/" + escape_pointer_token(key),
                "the _meta key \"" + key + "\" has a prefix MCP " + std::string(ctx.spec_revision) +
                    " reserves for itself (" + why + ")" +
                    (is_vocabulary_key(ctx.vocabulary, key)
                         ? "; the proposal names this key, but under this revision a server may not send it: "
                           "mirror it under your own reverse-DNS prefix"
                         : "; use your own reverse-DNS prefix, e.g. com.example/"));
  }
}

// The keys of the specification's ToolAnnotations: its hint fields in the crosswalk, and title.
std::set<std::string> spec_annotation_keys(const Vocabulary& vocabulary) {
  std::set<std::string> out{"title"};
  for (const auto& field : vocabulary.fields())
    if (field.vocabulary == "spec") out.insert(field.key);
  return out;
}

void annotation_only(const ToolContext& ctx, const FindingSink& sink) {
  if (!ctx.tool.is_object()) return;
  auto annotations = ctx.tool.find("annotations");
  if (annotations == ctx.tool.end() || !annotations->is_object()) return;
  const auto spec_keys = spec_annotation_keys(ctx.vocabulary);
  std::vector<std::string> dropped;
  auto meta = ctx.tool.find("_meta");
  for (const auto& [key, value] : annotations->items()) {
    if (spec_keys.count(key)) continue;
    bool mirrored = false;
    if (meta != ctx.tool.end() && meta->is_object()) {
      for (const auto& [mkey, mvalue] : meta->items()) {
        auto slash = mkey.rfind('/');
        if (slash != std::string::npos && mkey.substr(slash + 1) == key) mirrored = true;
      }
    }
    if (!mirrored) dropped.push_back(key);
  }
  if (dropped.empty()) return;
  std::string list;
  for (const auto& k : dropped) list += (list.empty() ? "" : ", ") + k;
  sink.report("/annotations", "annotations." + list + (dropped.size() == 1 ? " is" : " are") +
                                  " not defined by the specification; SDK clients (the official TypeScript and "
                                  "Python SDKs) drop unknown annotation keys, so no client decision sees " +
                                  (dropped.size() == 1 ? "it" : "them") +
                                  ": mirror " + (dropped.size() == 1 ? "it" : "each") +
                                  " in _meta under your own prefix, e.g. _meta[\"com.example/" + dropped.front() +
                                  "\"]");
}

void agency_destructive_unconfirmed(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* agency = ctx.hints.asserting("agency", true);
  const Claim* destructive = ctx.hints.asserting("effect", "delete");
  if (!agency || !destructive || first_of(ctx.hints, "confirmation", {"single", "multi"})) return;
  sink.report(agency->source.pointer(), "agencyHint is true and " + said(*destructive) +
                                          ": an agentic, destructive tool is a candidate for stricter "
                                          "human-in-the-loop control, yet no confirmation is declared");
}

constexpr std::array<Check, 23> kChecks = {{
    {{"schema.spec-tool", Level::error, "MCP specification (chosen revision): Tool, ToolAnnotations, _meta key names",
      "the tool matches the specification's Tool schema"},
     &schema_check<kSpec>},
    {{"schema.policy-hints", Level::error, "proposal 1 (policy hints): Proposed hints",
      "mcp.dev/* keys in _meta have the proposal's types and values"},
     &schema_check<kPolicyHints>},
    {{"schema.risk-metadata", Level::error, "SEP-2793: What it adds",
      "riskLevel, category, blastRadius, reversibility, sideEffects, approvalRecommendation, minTrustLevel are well-typed"},
     &schema_check<kRiskMetadata>},
    {{"schema.action-security", Level::error, "Action Security Metadata: Specification; Appendix",
      "inputMetadata and returnMetadata have the proposal's keys and values"},
     &schema_check<kActionSecurity>},
    {{"schema.agency-hint", Level::error, "SEP-1938: New annotation", "agencyHint is a boolean"},
     &schema_check<kAgencyHint>},
    {{"schema.trust-annotations", Level::error, "SEP-1913: ToolAnnotations inputMetadata and returnMetadata",
      "SEP-1913's camelCase inputMetadata and returnMetadata have its keys and lowercase values"},
     &schema_check<kTrustAnnotations>},
    {{"schema.action-metadata", Level::error, "interest group extension io.modelcontextprotocol/action-metadata",
      "_meta[\"io.modelcontextprotocol/action-metadata\"] has the extension's members and values"},
     &schema_check<kActionMetadata>},
    {{"infer.contradicts-name", Level::warning, "SEP-2793 reference implementation: inference from verb classes",
      "a tool whose name starts with a delete, write or send verb is not declared read-only (nor, for delete, non-destructive)"},
     &contradicts_name},
    {{"vocab.mixed-revisions", Level::warning, "SEP-1913 (supersedes #711 and the action security seed)",
      "a tool does not mix keys of a revision with those of the revision that replaced it"},
     &vocab_mixed_revisions},
    {{"vocab.pinned-revision", Level::warning, "mcp-hints: a vocabulary revision pinned for the catalog",
      "when a revision is pinned, a tool uses it, not another revision of the same vocabulary or one it replaced"},
     &vocab_pinned_revision},
    {{"hints.readonly-contradiction", Level::error, "MCP specification: ToolAnnotations.readOnlyHint",
      "a read-only tool claims no writing or deleting effect and no consequential or irreversible outcome"},
     &readonly_contradiction},
    {{"hints.destructive-contradiction", Level::error, "MCP specification: ToolAnnotations.destructiveHint",
      "a tool with destructiveHint false claims no delete effect or category and no reversibility none"},
     &destructive_contradiction},
    {{"hints.readonly-and-destructive", Level::warning, "MCP specification: ToolAnnotations.destructiveHint",
      "readOnlyHint and destructiveHint are not both true (the latter would be ignored)"},
     &readonly_and_destructive},
    {{"idempotency.retry-unsafe", Level::warning, "proposal 1: idempotent; MCP specification: idempotentHint",
      "mcp.dev/idempotent is not true where idempotentHint says repeated calls have effects"},
     &idempotency_retry_unsafe},
    {{"idempotency.meanings-differ", Level::info, "proposal 1: idempotent; MCP specification: idempotentHint",
      "notes where idempotentHint and mcp.dev/idempotent differ only because they mean different things"},
     &idempotency_meanings_differ},
    {{"confirmation.missing-for-destructive", Level::warning, "proposal 1: Use cases (destructive tools declare requiresConfirmation)",
      "a delete effect, destroy category, Irreversible outcome or critical risk comes with a declared confirmation"},
     &confirmation_missing},
    {{"confirmation.contradiction", Level::error, "proposal 1: requiresConfirmation; SEP-2793: approvalRecommendation",
      "requiresConfirmation and approvalRecommendation agree on whether to confirm"},
     &confirmation_contradiction},
    {{"risk.understated", Level::error, "SEP-2793: riskLevel, category, blastRadius",
      "riskLevel low is not given to a destroy category or an organization or global blast radius"},
     &risk_understated},
    {{"open-world.contradiction", Level::error, "MCP specification: openWorldHint; proposal 1: effect; Action Security: Destination",
      "openWorldHint false is not given to a tool with effect external or Destination Public"},
     &open_world_contradiction},
    {{"sensitivity.result-understated", Level::error, "proposal 1: resultSensitivity; Action Security: returnMetadata.Sensitivity",
      "resultSensitivity public is not given to a tool returning PII, Financial, Credentials or Regulated data"},
     &result_sensitivity_understated},
    {{"meta.reserved-prefix", Level::error, "MCP specification (chosen revision): General fields, _meta",
      "_meta keys do not use a prefix the chosen revision reserves for MCP (mcp.dev/ under 2025-06-18)"},
     &meta_reserved_prefix},
    {{"placement.annotation-only", Level::warning, "MCP specification: ToolAnnotations; SDK behaviour",
      "hints outside the specification's ToolAnnotations keys are mirrored in _meta, where SDK clients keep them"},
     &annotation_only},
    {{"agency.destructive-unconfirmed", Level::info, "SEP-1938: Guidance for clients",
      "an agentic tool with a destructive effect declares a confirmation"},
     &agency_destructive_unconfirmed},
}};

constexpr std::array<CheckInfo, 12> kServerChecks = {{
    {"server.initialize", Level::error, "MCP specification: Lifecycle, Initialization",
     "the server answers initialize with a result holding protocolVersion and capabilities", Scope::server},
    {"server.protocol-version", Level::error, "MCP specification: Lifecycle, Version Negotiation",
     "the server chooses a protocol version of the legacy era mcp-hints offers or accepts", Scope::server},
    {"server.tools-capability", Level::error, "MCP specification: Server Features, Tools, Capabilities",
     "a server that lists tools declares the tools capability", Scope::server},
    {"server.stdout-protocol-only", Level::error, "MCP specification: Transports, stdio",
     "the server writes nothing but MCP messages to stdout", Scope::server},
    {"server.list-page", Level::error, "MCP specification: Tools, Listing Tools; Pagination",
     "every tools/list page is a result with a tools array and, if any, a string nextCursor", Scope::server},
    {"server.cursor-terminates", Level::error, "MCP specification: Utilities, Pagination",
     "following nextCursor ends, without repeating a cursor, within the page bound", Scope::server},
    {"stability.relist", Level::warning, "proposal 1: Semantics (stable hints)",
     "listing tools twice in one session gives every tool the same hints", Scope::server},
    {"stability.restart", Level::warning, "proposal 1: Semantics (hints SHOULD NOT change between server restarts)",
     "a restarted server (stdio) or a second session (HTTP) gives every tool the same hints", Scope::server},
    {"list-changed.weakened", Level::warning, "MCP specification: Tools, List Changed Notification; proposal 1: Semantics",
     "after notifications/tools/list_changed no tool's hints become less cautious (a possible rug pull)", Scope::server},
    {"list-changed.changed", Level::info, "MCP specification: Tools, List Changed Notification",
     "reports hints that changed after notifications/tools/list_changed", Scope::server},
    {"result.trust-annotations", Level::error, "issue #711 / SEP-1913: trust annotations; interest group extension io.modelcontextprotocol/trust-annotations",
     "a tools/call result's trust annotations have the types and values of their revision (#711, or the pinned one) "
     "and of the extension", Scope::server},
    {"result.sensitivity-understated", Level::error, "issue #711: sensitiveHint; proposal 1: resultSensitivity",
     "a result is not more sensitive than its tool declared (resultSensitivity)", Scope::server},
}};

}  // namespace

std::span<const Check> lint_checks() { return kChecks; }

std::span<const CheckInfo> server_checks() { return kServerChecks; }

std::vector<CheckInfo> all_checks() {
  std::vector<CheckInfo> out;
  for (const auto& c : kChecks) out.push_back(c.info);
  out.insert(out.end(), kServerChecks.begin(), kServerChecks.end());
  return out;
}

const CheckInfo* find_check_info(std::string_view id) {
  if (const auto* c = find_check(id)) return &c->info;
  for (const auto& c : kServerChecks)
    if (c.id == id) return &c;
  return nullptr;
}

const Check* find_check(std::string_view id) {
  for (const auto& c : kChecks)
    if (c.info.id == id) return &c;
  return nullptr;
}

}  // namespace mcp_hints
