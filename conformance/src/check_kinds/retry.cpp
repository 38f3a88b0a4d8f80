// retry: the calls of a tool after transient failures, against a bound on attempts.
#include <cmath>

#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

struct Retry {
  std::string server, tool;
  int max_attempts = 0;  // the most calls allowed, the first included
};

Retry read_retry(CheckReader& in) {
  Retry retry;
  retry.server = in.server("server");
  retry.tool = in.tool("tool", retry.server);
  retry.max_attempts = in.integer_or("maxAttempts", 0);
  return retry;
}

Observation judge_retry(const Retry& check, const RunRecord& record) {
  std::vector<double> times;
  bool failed = false;
  for (const auto& line : record.wire) {
    if (!is_call_of(record, line, check.server, check.tool)) continue;
    times.push_back(line.time);
    if (const WireLine* answer = record.answer_to(line)) {
      const json* transient = member(answer->message, {"error", "data", "transient"});
      if (transient && *transient == true) failed = true;
    }
  }
  if (times.empty()) return {"not-reached", check.tool + " was never called"};
  if (!failed) return {"no-failure", "no call of " + check.tool + " was answered with a transient failure"};
  std::string detail = std::to_string(times.size()) + " call(s) of " + check.tool + " (at most " +
                       std::to_string(check.max_attempts) + " allowed)";
  if (times.size() > 1) {
    detail += "; intervals";
    for (std::size_t i = 1; i < times.size(); ++i)
      detail.append(" ").append(std::to_string(std::llround((times[i] - times[i - 1]) * 1000))).append(" ms");
  }
  if (times.size() == 1) return {"not-retried", detail};
  if (static_cast<int>(times.size()) > check.max_attempts) return {"retried-beyond-bound", detail};
  return {"retried-within-bound", detail};
}

}  // namespace

CheckKind retry_kind() {
  return make_check_kind("retry",
                         {{"not-retried", "after the transient failure the client did not call again on its own"},
                          {"retried-within-bound", "the client retried, within the bound on attempts"},
                          {"retried-beyond-bound", "the client retried more often than the bound allows"},
                          {"no-failure", "no transient failure was sent (the tool was not called as scripted)", true},
                          {"not-reached", "the tool was never called", true}},
                         read_retry, judge_retry);
}

}  // namespace mcp_hints::conformance
