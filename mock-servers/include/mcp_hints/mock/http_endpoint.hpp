#pragma once
// The mock server's Streamable HTTP endpoint as a function of one request: the origin, Accept and
// Content-Type checks, the authorization context, sessions (or the stateless era's mirrored
// headers), then the engine. serve_http puts it behind the HTTP front; the fuzz harness calls it
// directly, so everything a hostile HTTP client can reach past the front is one call.
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::mock {

// The request ids a client cancelled, as long as an answer may still wait for them: the newest
// `capacity` are kept, so a client that cancels forever cannot grow the server (an answer waits in
// its own request, and no more requests are open than the front serves connections).
class CancelledRequests {
 public:
  explicit CancelledRequests(std::size_t capacity = 4096) : capacity_(capacity) {}
  void add(const nlohmann::json& id);
  bool contains(const nlohmann::json& id) const;
  std::size_t size() const { return order_.size(); }

 private:
  std::size_t capacity_;
  std::deque<std::string> order_;
  std::multiset<std::string> ids_;
};

class HttpEndpoint {
 public:
  // keep_time false sends a delayed answer at once (the fuzz harness: a scripted delay would only
  // slow it down); serve_http keeps time. The recorder may be null.
  HttpEndpoint(MockServer& server, Recorder* recorder, bool keep_time = true);
  // One request, its reply. Thread-safe: the front calls it from every connection's thread.
  HttpReply handle(const HttpRequestView& request);

  bool session_open(const std::string& id) const;

 private:
  // The revision a session's initialize agreed on (empty: unknown or not open).
  std::string session_version(const std::string& id) const;
  void agree(const std::string& id, const std::string& version);
  HttpReply handle_post(const HttpRequestView& request, const std::string& connection);
  // A subscriptions/listen answered: its acknowledgment, then what is delivered on it, as an SSE
  // stream held open until the client closes it.
  HttpReply subscription_stream(const Outgoing& ack, const std::string& connection, const std::string& context);
  std::string open_session();
  void close_session(const std::string& id);
  void cancel(const nlohmann::json& id);
  bool cancelled(const nlohmann::json& id) const;

  MockServer& server_;
  Recorder* recorder_;
  bool keep_time_;
  mutable std::mutex mutex_;
  std::map<std::string, std::string> sessions_;  // open sessions, with the revision each agreed on
  CancelledRequests cancelled_;
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace mcp_hints::mock
