#include "mcp_hints/conformance/policy.hpp"

#include <algorithm>
#include <utility>

#include "mcp_hints/vocab/trust_annotations.hpp"

namespace mcp_hints {

using json = nlohmann::json;

std::string_view action_name(Decision::Action action) {
  switch (action) {
    case Decision::Action::allow: return "allow";
    case Decision::Action::confirm: return "confirm";
    case Decision::Action::block: return "block";
  }
  return "allow";
}

namespace {

// The rank of a sensitiveHint level on the crosswalk's scale; -1 when malformed.
int level_rank(const Vocabulary& vocabulary, const json& v) {
  const Field* field = annotation_field(vocabulary, "sensitiveHint");
  return field ? claim_rank(vocabulary, *field, v) : -1;
}

}  // namespace

SessionPolicy::SessionPolicy(PolicyConfig config, const Vocabulary& vocabulary)
    : config_(std::move(config)), vocabulary_(vocabulary) {}

Decision SessionPolicy::before_call(const ToolHints& hints) const {
  Decision d;
  auto need = [&](int confirmations, std::string why) {
    if (d.action == Decision::Action::allow) d.action = Decision::Action::confirm;
    d.confirmations = std::max(d.confirmations, confirmations);
    d.reasons.push_back(std::move(why));
  };
  // Resolved values include the specification's defaults: a tool with no hints is treated as
  // destructive and open-world, the cautious reading.
  const auto effect = hints.resolved("effect", vocabulary_);
  const auto confirmation = hints.resolved("confirmation", vocabulary_);
  const auto outcome = hints.resolved("outcome", vocabulary_);
  const auto risk = hints.resolved("risk", vocabulary_);
  const auto agency = hints.resolved("agency", vocabulary_);
  const auto min_trust = hints.resolved("min-trust", vocabulary_);
  const auto open_world = hints.resolved("open-world", vocabulary_);
  const auto destination = hints.resolved("destination", vocabulary_);
  // The specification's own default: readOnlyHint false without a destructiveHint means
  // destructiveHint true ("Default: true"), whatever another vocabulary adds.
  const Claim* read_only = hints.claim_of("spec", "readOnlyHint");
  const bool spec_default_destructive =
      read_only && read_only->value == "write" && !hints.claim_of("spec", "destructiveHint");
  const bool destructive = (effect && *effect == "delete") || spec_default_destructive;
  const bool writes = effect && *effect != "read";

  if (confirmation && *confirmation != "none")
    need(*confirmation == "multi" ? 2 : 1, "the server asks for " + confirmation->get<std::string>() + " confirmation");
  if (destructive)
    need(1,
         hints.asserted("effect").empty()
             ? "the tool has no hints: by the specification's defaults it may be destructive"
         : spec_default_destructive && *effect != "delete"
             ? "readOnlyHint is false and destructiveHint absent: by the specification's default it may be destructive"
             : "the tool may delete or destroy");
  if (outcome && *outcome == "irreversible") need(1, "its outcome cannot be undone");
  if (risk && *risk == "critical") need(1, "its risk is critical");
  if (agency && *agency == true && destructive) need(1, "it is agentic and destructive");
  if (min_trust && min_trust->is_number_integer() && min_trust->get<int>() > config_.trust_level)
    need(1, "it asks for trust level " + min_trust->dump() + ", above the client's " +
                std::to_string(config_.trust_level));
  // Exfiltration: sensitive data in the context must not leave silently.
  const bool leaves = (effect && *effect == "external") || (destination && *destination == "public") ||
                      (open_world && *open_world == true && writes);
  if (!sensitive_sources_.empty() && leaves) {
    if (destination && *destination == "public") {
      d.action = Decision::Action::block;
      d.reasons.push_back("the context holds sensitive data (" + sensitive_sources_.front() +
                          ") and this tool sends its input to public destinations");
    } else {
      need(1, "the context holds sensitive data (" + sensitive_sources_.front() + ") and this tool reaches outside");
    }
  }
  // After malicious activity, nothing consequential proceeds unconfirmed.
  if (malicious_seen_ && writes) need(1, "malicious activity was reported earlier in this session");
  return d;
}

bool SessionPolicy::may_retry(const ToolHints& hints, int attempt) const {
  if (attempt >= config_.max_attempts) return false;
  const auto effect = hints.resolved("effect", vocabulary_);
  if (effect && *effect == "read" && !hints.asserted("effect").empty()) return true;
  // Otherwise only when idempotency is asserted and nothing says it is not: the specification's
  // "no additional effect" or proposal 1's "same input, same result".
  const auto claims = hints.asserted("idempotent");
  if (claims.empty()) return false;
  return std::all_of(claims.begin(), claims.end(), [](const Claim* c) { return c->value == true; });
}

void SessionPolicy::after_result(const ToolHints& hints, const json& result) {
  // What the tool said it returns.
  for (const Claim* c : hints.asserted("result-data")) {
    const std::string cls = c->value.get<std::string>();
    if (cls == "pii" || cls == "credentials" || cls == "financial" || cls == "regulated")
      sensitive_sources_.push_back(cls + " data returned by a tool (" + describe_source(c->source) + ")");
  }
  if (const auto level = hints.resolved("result-sensitivity", vocabulary_);
      level && hints.asserted("result-sensitivity").size() && (*level == "confidential" || *level == "restricted"))
    sensitive_sources_.push_back(level->get<std::string>() + " results");
  // The interest group's extension: sensitive data, or data from an untrusted source (carried
  // on as SEP-1913's openWorldHint). A content block may strengthen what the result says.
  const ResultTrust trust = read_result_trust(result);
  if (trust.sensitive.value_or(false))
    sensitive_sources_.push_back("a result marked sensitive (io.modelcontextprotocol/trust-annotations)");
  if (trust.untrusted.value_or(false)) annotations_["openWorldHint"] = true;
  // What the result itself says (#711, SEP-1913), carried on every later request.
  const json* annotations = find_member(result, {"_meta", "annotations"});
  if (!annotations || !annotations->is_object()) return;
  for (const auto& [key, value] : annotations->items()) {
    if (key == "sensitiveHint") {
      const int rank = level_rank(vocabulary_, value);
      if (rank < 0) continue;  // malformed: absent, never a downgrade
      if (rank > level_rank(vocabulary_, annotations_.value("sensitiveHint", json())))
        annotations_["sensitiveHint"] = value;
      if (rank >= level_rank(vocabulary_, json(config_.sensitive_from)))
        sensitive_sources_.push_back("a result marked sensitiveHint " +
                                     (value.is_string() ? value.get<std::string>() : value.dump()));
    } else if (key == "privateHint" || key == "openWorldHint") {
      if (value == true) annotations_[key] = true;
    } else if (key == "maliciousActivityHint") {
      if (value == true) {
        annotations_[key] = true;
        malicious_seen_ = true;
        escalations_.push_back("a result reported malicious activity");
      }
    } else if (key == "attribution" && value.is_array()) {
      for (const auto& a : value)
        if (a.is_string()) attribution_.insert(a.get<std::string>());
    }
  }
  if (!attribution_.empty())
    annotations_["attribution"] = json(std::vector<std::string>(attribution_.begin(), attribution_.end()));
}

json SessionPolicy::request_annotations() const { return annotations_; }

std::vector<std::string> SessionPolicy::take_escalations() { return std::exchange(escalations_, {}); }

}  // namespace mcp_hints
