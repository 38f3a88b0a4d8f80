// retry: the calls of a tool after transient failures, against a bound on attempts.
#include <algorithm>
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
  struct Call {
    double time;
    double answered = kNever;
    double retry_after_ms = 0;  // the wait the failure asked for (error.data.retryAfterMs), if any
    bool failed = false;        // answered with a transient failure
    const WireLine* line = nullptr;
  };
  std::vector<Call> calls;
  for (const auto& line : record.wire) {
    if (!is_call_of(record, line, check.server, check.tool)) continue;
    Call call{line.time};
    call.line = &line;
    if (const WireLine* answer = record.answer_to(line)) {
      call.answered = answer->time;
      const json* transient = member(answer->message, {"error", "data", "transient"});
      call.failed = transient && *transient == true;
      const json* wait = member(answer->message, {"error", "data", "retryAfterMs"});
      if (call.failed && wait && wait->is_number() && wait->get<double>() > 0)
        call.retry_after_ms = wait->get<double>();
    }
    calls.push_back(call);
  }
  if (calls.empty()) {
    if (const ClientEvent* block = first_block_of(record, check.server, check.tool))
      return {"blocked", check.tool + " was refused by the client on its own and never called: nothing to retry",
              nullptr, block};
    return {"not-reached", check.tool + " was never called"};
  }
  if (std::none_of(calls.begin(), calls.end(), [](const Call& c) { return c.failed; }))
    return {"no-failure", "no call of " + check.tool + " was answered with a transient failure"};
  std::string detail = std::to_string(calls.size()) + " call(s) of " + check.tool + " (at most " +
                       std::to_string(check.max_attempts) + " allowed)";
  if (calls.size() == 1) return {"not-retried", detail};
  detail += "; intervals";
  for (std::size_t i = 1; i < calls.size(); ++i)
    detail.append(" ").append(std::to_string(std::llround((calls[i].time - calls[i - 1].time) * 1000))).append(" ms");
  if (static_cast<int>(calls.size()) > check.max_attempts)
    return {"retried-beyond-bound", detail, calls[static_cast<std::size_t>(std::max(check.max_attempts, 0))].line};
  // A failure that asked for a wait: the next call must not come sooner (a millisecond's rounding).
  for (std::size_t i = 1; i < calls.size(); ++i) {
    const Call& failed = calls[i - 1];
    if (failed.retry_after_ms <= 0 || failed.answered == kNever) continue;
    const double waited_ms = (calls[i].time - failed.answered) * 1000;
    if (waited_ms + 1 < failed.retry_after_ms)
      return {"retried-too-soon",
              "the " + ordinal(i + 1) + " call came " + std::to_string(std::llround(waited_ms)) +
                  " ms after a failure that asked for " + std::to_string(std::llround(failed.retry_after_ms)) +
                  " ms; " + detail,
              calls[i].line};
  }
  // Each call the client made again on its own is reported (a retry event before it, attempt n
  // for the n-th call), so the user can see what the client repeats.
  std::size_t reported = 0;
  const WireLine* first_unreported = nullptr;
  for (std::size_t i = 1; i < calls.size(); ++i) {
    const double after = calls[i - 1].time, before = calls[i].time;
    const bool seen = std::any_of(record.events.begin(), record.events.end(), [&](const ClientEvent& e) {
      if (e.type != "retry" || e.time < after || e.time > before || !event_is_for(e, check.server, check.tool))
        return false;
      const json* attempt = member(e.data, {"attempt"});
      return attempt && attempt->is_number_integer() && attempt->get<long long>() == static_cast<long long>(i) + 1;
    });
    if (seen)
      ++reported;
    else if (!first_unreported)
      first_unreported = calls[i].line;
  }
  if (reported + 1 < calls.size())
    return {"retried-unreported",
            std::to_string(calls.size() - 1 - reported) + " of " + std::to_string(calls.size() - 1) +
                " retries had no retry event (with its attempt number) before the call; " + detail,
            first_unreported};
  return {"retried-within-bound", detail};
}

}  // namespace

CheckKind retry_kind() {
  return make_check_kind(
      "retry",
      {{"not-retried", "after the transient failure the client did not call again on its own"},
       {"retried-within-bound", "the client retried, within the bound on attempts"},
       {"retried-beyond-bound", "the client retried more often than the bound allows"},
       {"retried-too-soon", "the client retried sooner than the failure asked (error.data.retryAfterMs)"},
       {"retried-unreported", "the client retried, within the bound, without reporting each retry (a retry event)"},
       {"blocked", "the client refused the tool on its own (a blocked event) and never called it: nothing to retry"},
       {"no-failure", "no transient failure was sent (the tool was not called as scripted)", true},
       {"not-reached", "the tool was never called", true}},
      read_retry, judge_retry);
}

}  // namespace mcp_hints::conformance
