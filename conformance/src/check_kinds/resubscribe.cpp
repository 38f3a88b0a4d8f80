// resubscribe: whether a client that held a subscriptions/listen stream on a connection the server
// then dropped (a scripted close) sends subscriptions/listen again on its reconnection: "On stdio,
// if the connection is terminated and then re-established, the client MUST re-send
// `subscriptions/listen` to re-establish its subscriptions — the server holds no subscription
// state across reconnections" (subscriptions, 2026-07-28).
#include <algorithm>
#include <vector>

#include "check_kind.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

namespace {

struct Resubscribe {
  std::string server;
};

Resubscribe read_resubscribe(CheckReader& in) { return {in.server("server")}; }

// One connection of the server, as the record shows it.
struct Connection {
  std::string name;
  std::size_t session = 0;
  bool dropped = false;     // the server dropped it (a scripted close)
  bool subscribed = false;  // the client sent subscriptions/listen on it
  const WireLine* first_request = nullptr;
};

Observation judge_resubscribe(const Resubscribe& check, const RunRecord& record) {
  std::vector<Connection> connections;  // in the order each first appears
  for (const auto& line : record.wire) {
    if (line.server != check.server) continue;
    auto it = std::find_if(connections.begin(), connections.end(),
                           [&](const Connection& c) { return c.name == line.connection; });
    if (it == connections.end()) it = connections.insert(connections.end(), {line.connection, line.session});
    if (line.event == mock::kScriptedCloseEvent) it->dropped = true;
    if (!record.is_request_in(line)) continue;
    if (!it->first_request) it->first_request = &line;
    it->subscribed = it->subscribed || method_of(line) == "subscriptions/listen";
  }
  std::size_t drops = 0, held = 0, reconnected = 0;
  for (std::size_t i = 0; i < connections.size(); ++i) {
    const Connection& dropped = connections[i];
    if (!dropped.dropped) continue;
    ++drops;
    if (!dropped.subscribed) continue;
    ++held;
    // The reconnection: the session's next connection that the client used.
    for (std::size_t j = i + 1; j < connections.size(); ++j) {
      const Connection& next = connections[j];
      if (next.session != dropped.session || !next.first_request) continue;
      ++reconnected;
      if (!next.subscribed)
        return {"not-resubscribed",
                "the client held a subscription on " + check.server + " when it dropped the connection; on the " +
                    "reconnection it sent " + describe_request(*next.first_request) +
                    " and more, but no subscriptions/listen",
                next.first_request};
      break;
    }
  }
  const std::string counts = std::to_string(drops) + " dropped connection(s) of " + check.server + ", " +
                             std::to_string(held) + " with a subscription held, " + std::to_string(reconnected) +
                             " reconnection(s) after one";
  if (drops == 0) return {"not-reached", counts};
  if (held == 0) return {"never-subscribed", counts};
  if (reconnected == 0) return {"not-reconnected", counts};
  return {"resubscribed", counts};
}

}  // namespace

CheckKind resubscribe_kind() {
  return make_check_kind(
      "resubscribe",
      {{"resubscribed",
        "the client held a subscriptions/listen stream on a connection the server dropped, and sent "
        "subscriptions/listen again on its reconnection"},
       {"not-resubscribed",
        "the client held a subscriptions/listen stream on a connection the server dropped, and used the "
        "reconnection without sending subscriptions/listen again"},
       {"never-subscribed",
        "the client held no subscription when the server dropped the connection (listening is its choice): "
        "nothing to re-establish (not applicable)",
        false, true},
       {"not-reconnected",
        "the client did not use the server again after it dropped the connection, which it may: nothing to "
        "judge (not applicable)",
        false, true},
       {"not-reached", "the server never dropped a connection", true}},
      read_resubscribe, judge_resubscribe);
}

}  // namespace mcp_hints::conformance
