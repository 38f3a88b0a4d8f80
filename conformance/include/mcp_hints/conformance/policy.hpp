#pragma once
// The reference client policy: what a careful client decides from the normalized hint model —
// confirm, block or allow a call, carry trust annotations (#711) on later requests, escalate
// malicious activity, and retry only what is safe to retry. Knows nothing of the wire.
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

struct PolicyConfig {
  int trust_level = 3;   // the client's own trust level, compared with minTrustLevel (1-5)
  int max_attempts = 3;  // a call and its retries, for tools safe to retry
  // The lowest sensitiveHint level that makes the context sensitive. #711 guards writes "when
  // sensitiveHint is true", and even low is "not for public release": any level.
  std::string sensitive_from = "low";
};

struct Decision {
  enum class Action { allow, confirm, block };
  Action action = Action::allow;
  int confirmations = 0;             // 1, or 2 for approvalRecommendation multi
  std::vector<std::string> reasons;  // why, one per rule that fired, in words a user can read
};

std::string_view action_name(Decision::Action action);

class SessionPolicy {
 public:
  explicit SessionPolicy(PolicyConfig config = {}, const Vocabulary& vocabulary = Vocabulary::builtin());

  // Before calling a tool: allow, ask the user (how many times), or refuse.
  Decision before_call(const ToolHints& hints) const;
  // After a transient failure of attempt `attempt` (1-based): may the client try again on its own?
  bool may_retry(const ToolHints& hints, int attempt) const;
  // After a result: what the tool's hints and the result's annotations say entered the context.
  void after_result(const ToolHints& hints, const nlohmann::json& result);

  // The annotations to carry on every later request (params._meta.annotations); empty when
  // nothing has been set in this session.
  nlohmann::json request_annotations() const;
  // Reasons to tell the user now (malicious activity seen); taken once.
  std::vector<std::string> take_escalations();
  bool sensitive_context() const { return !sensitive_sources_.empty(); }

 private:
  PolicyConfig config_;
  const Vocabulary& vocabulary_;
  nlohmann::json annotations_ = nlohmann::json::object();  // propagated (#711)
  std::set<std::string> attribution_;
  std::vector<std::string> sensitive_sources_;  // why the context holds sensitive data
  std::vector<std::string> escalations_;
  bool malicious_seen_ = false;
};

}  // namespace mcp_hints
