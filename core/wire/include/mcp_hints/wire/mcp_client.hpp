#pragma once
// The client side of MCP in both protocol eras: the legacy one (initialize, then requests in a
// session) and the stateless one (2026-07-28: server/discover, then requests that each carry the
// protocol version and client capabilities in their _meta). What check-server and the reference
// client speak. Knows nothing of hints.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

// The server answered, but not as the protocol says; the run can go on without this step.
class ProtocolError : public Error {
 public:
  explicit ProtocolError(const std::string& what, nlohmann::json error = {})
      : Error(Category::incomplete, what), error(std::move(error)) {}
  nlohmann::json error;  // the JSON-RPC error object, when the server answered with one
};

struct ClientOptions {
  std::chrono::milliseconds request_timeout{10000};
  std::size_t max_pages = 1000;  // tools/list pages followed at most
  std::size_t max_total_tools = 1000000;
  std::size_t max_total_bytes = std::size_t{256} << 20;  // all pages of one listing
  std::string client_name = "mcp-hints";
  std::optional<Deadline> run_deadline;  // no wait goes past it
  ProtocolChoice protocol;               // the era and revision to speak
  // automatic: how long server/discover may take before the client falls back to initialize (a
  // legacy server may ignore any request before initialize); never longer than request_timeout.
  std::chrono::milliseconds discover_probe_timeout{3000};
  // The capabilities the client declares (in initialize, and in every stateless-era request's
  // _meta): none unless it answers what they let a server ask.
  nlohmann::json capabilities = nlohmann::json::object();
  // Answers a request the server makes while the client waits (elicitation/create in the session
  // era): the result to send, or nullopt for method-not-found. ping is always answered.
  std::function<std::optional<nlohmann::json>(const nlohmann::json& request)> answer_server_request;
  // Streamable HTTP, session era: hold the server's standalone GET stream open while a request is
  // under way (Transport::listen_during_requests), for a server that asks there what a call needs.
  bool listen_during_requests = false;
};

// What the server said of itself: the initialize result (legacy era) or the server/discover
// result (stateless era).
struct InitializeResult {
  ProtocolEra era = ProtocolEra::legacy;
  std::string protocol_version;  // negotiated (legacy) or chosen from supportedVersions (stateless)
  nlohmann::json capabilities;   // the server's
  nlohmann::json server_info;
  nlohmann::json raw;
  std::vector<std::string> supported_versions;  // stateless: the discover result's list
  std::string fallback_reason;                  // automatic: why the client fell back to initialize
};

struct ToolListing {
  std::vector<nlohmann::json> tools;
  std::size_t page_count = 0;
  std::vector<std::string> page_errors;  // what was wrong with a page ("page 2: ...")
  bool complete = true;                  // false when pagination was cut short
  bool over_size_limit = false;          // ... by our bound on tools or bytes, not by the cursors
  std::string incomplete_reason;
  std::vector<nlohmann::json> pages;  // each page's result without its tools, for the era's checks
  // Members a tool's text gave twice, by the tool's index in `tools` (pointers below the tool);
  // one repeated elsewhere in a page is in page_errors.
  std::map<std::size_t, std::vector<DuplicateMember>> tool_duplicates;

  // How long the listing may be kept (stateless era): the shortest ttlMs of its pages, a page
  // without a valid one counting as 0; nullopt when no page carries ttlMs (the legacy era).
  std::optional<long long> ttl_ms() const;
};

// What a subscriptions/listen stream (the stateless era) brought while it was read.
struct SubscriptionWindow {
  nlohmann::json id;                     // the request's: the subscriptionId its messages should carry
  std::vector<nlohmann::json> messages;  // the notifications received, in order
  std::optional<nlohmann::json> answer;  // the response to the request, if one came (an error, or the
                                         // server ending the subscription)
};

class McpClientSession {
 public:
  McpClientSession(Transport& transport, ClientOptions options = {});
  McpClientSession(const McpClientSession&) = delete;
  McpClientSession& operator=(const McpClientSession&) = delete;

  // Opens the conversation in the era the options choose: server/discover (stateless) or
  // initialize + notifications/initialized (legacy). ProtocolError for an error answer or a
  // malformed one; TransportError when the server is gone or silent.
  InitializeResult connect();
  // The legacy handshake alone.
  InitializeResult initialize();
  // The stateless-era server/discover alone; the session then speaks the stateless era.
  InitializeResult discover();
  ProtocolEra era() const { return era_; }
  const std::string& protocol_version() const { return protocol_version_; }
  // The revision messages are held to: the one agreed or spoken, or before that the one offered
  // in the initialize request (a server's answer to it is read in that revision).
  const std::string& revision_in_play() const {
    return protocol_version_.empty() ? offered_version_ : protocol_version_;
  }
  // tools/list following nextCursor, within the page and size bounds.
  ToolListing list_tools();
  // tools/call; returns the result object, or throws ProtocolError with the JSON-RPC error.
  nlohmann::json call_tool(const std::string& name, const nlohmann::json& arguments);
  // Sends a request and waits for its response (the result, or ProtocolError for an error), at
  // most `timeout` (default: the options' request_timeout; "SDKs and other middleware SHOULD allow
  // these timeouts to be configured on a per-request basis"), then RequestTimeout.
  nlohmann::json request(const std::string& method, const std::optional<nlohmann::json>& params,
                         std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // The members the last result request() returned gave twice (pointers below the result).
  const std::vector<DuplicateMember>& result_duplicates() const { return result_duplicates_; }

  // Opens a subscriptions/listen stream asking for `filter` (its `notifications`), reads it for
  // `window` (never past the run's deadline) or until the server answers the request, then ends it
  // (HTTP: closes the stream; stdio: notifications/cancelled). Server requests meanwhile are
  // answered, and each notification also counts in notifications().
  SubscriptionWindow listen(const nlohmann::json& filter, std::chrono::milliseconds window);

  // The stateless era's subscriptions/listen asking for `filter`, held open beside the requests
  // that follow (Streamable HTTP: on a connection and thread of its own; stdio: on the one channel,
  // read whenever the session reads), until release_subscription(), another hold or the session's
  // end. Waits (at most the request timeout) for the server's acknowledgment, before which nothing
  // is announced on it, or its refusal. Returns its id (its request's). What it brings counts in
  // notifications() once taken in: by poll(), or by a request made meanwhile.
  nlohmann::json hold_subscription(const nlohmann::json& filter);
  // Ends the held subscription (HTTP: closes its stream; stdio: notifications/cancelled).
  void release_subscription();
  // Whether a subscription is held and the server has not ended it (nor its stream closed), as far
  // as what was taken in and the held stream say; takes nothing in.
  bool holding_subscription();
  // Why the held subscription ended (empty while it is held, and once released).
  const std::string& subscription_end() const { return held_end_; }
  // The most messages a held stream may bring before they are taken in; at more, its reading stops
  // and the subscription ends (a flooding server cannot exhaust memory).
  static constexpr std::size_t kHeldBacklog = 4096;
  // Takes in what came meanwhile, without waiting: what the held stream brought, and over stdio
  // what the channel holds (server requests answered, notifications counted).
  void poll();

  // Sends a notification (e.g. notifications/cancelled); params as given.
  void notify(const std::string& method, const std::optional<nlohmann::json>& params);

  // How a server answered a probe: a result, an error, or neither (no answer in time).
  struct ProbeAnswer {
    std::optional<nlohmann::json> result;
    std::optional<nlohmann::json> error;  // the JSON-RPC error object
    int http_status = 0;                  // HTTP: the answer's status (0 for stdio)
    bool answered() const { return result || error; }
  };
  // Sends a request exactly as given, to see how the server answers what a correct client would
  // not send: `params` untouched (no protocol _meta added) and, over HTTP, `headers` replacing the
  // transport's own for this request. Waits at most `timeout`; TransportError when the server is gone.
  ProbeAnswer probe(const std::string& method, const nlohmann::json& params, Transport::HeaderOverrides headers,
                    std::chrono::milliseconds timeout);

  // The _meta every stateless-era request carries (protocol version, client capabilities and
  // information); empty in the legacy era.
  nlohmann::json protocol_meta() const;

  // Metadata merged into params._meta of every later request (e.g. #711 trust annotations);
  // an empty object sends none.
  void set_request_meta(nlohmann::json meta) { request_meta_ = std::move(meta); }

  // Told every message sent and received, in order (e.g. to validate each against its schema).
  using MessageObserver = std::function<void(const nlohmann::json& message, Direction direction)>;
  void set_message_observer(MessageObserver observer) { observer_ = std::move(observer); }

  // Waits up to `window` for notifications, handling server requests meanwhile.
  void observe(std::chrono::milliseconds window);
  // Notifications received so far, by method name: the first kCountedMethods distinct methods each
  // on its own, and the specification's always. Later made-up methods are counted together, in
  // notifications_of_later_methods(), apart from any method name (the empty one included).
  std::size_t notification_count(const std::string& method) const;
  std::size_t notifications_of_later_methods() const { return notifications_of_later_methods_; }
  std::size_t notifications_received() const { return notifications_received_; }
  // The first kKeptMessages notifications, in order: what a long or flooding session brings past
  // them is counted, not kept.
  const std::vector<nlohmann::json>& notifications() const { return notifications_; }
  // The first kKeptMessages requests the server made to us (each answered as
  // ClientOptions::answer_server_request says, with an empty result for ping, else with
  // method-not-found, kept or not).
  const std::vector<nlohmann::json>& server_requests() const { return server_requests_; }
  static constexpr std::size_t kKeptMessages = 1024;
  static constexpr std::size_t kCountedMethods = 256;

 private:
  InitializeResult discover(std::chrono::milliseconds timeout);
  void handle_unsolicited(const nlohmann::json& message);
  // One notification counted by its method, and kept while fewer than kKeptMessages are.
  void count_notification(const nlohmann::json& message);
  nlohmann::json answer_to(const nlohmann::json& request);
  void send(const nlohmann::json& message, Deadline deadline);
  std::optional<nlohmann::json> receive(Deadline deadline);
  void cancel_timed_out(long long id);
  // Request params with the _meta every request carries (the era's and the caller's) merged in.
  std::optional<nlohmann::json> with_meta(const std::optional<nlohmann::json>& params) const;
  nlohmann::json request_within(const std::string& method, const std::optional<nlohmann::json>& params,
                                std::chrono::milliseconds timeout);
  void speak(ProtocolEra era, const std::string& version);
  // Takes in what the held stream delivered (on its reader's thread) since last asked.
  void take_held_messages();
  Transport& transport_;
  std::shared_ptr<McpClientSession*> self_ = std::make_shared<McpClientSession*>(this);  // for the transport
  MessageObserver observer_;
  ProtocolEra era_ = ProtocolEra::legacy;
  std::string protocol_version_;
  std::string offered_version_;
  ClientOptions options_;
  long long next_id_ = 1;
  nlohmann::json request_meta_ = nlohmann::json::object();
  // By tool name, the input schemas of the last listing that mark x-mcp-header parameters
  // (stateless era over HTTP): what a tools/call mirrors in Mcp-Param headers.
  std::map<std::string, nlohmann::json> param_header_schemas_;
  void remember_param_headers(const nlohmann::json& tool);
  std::vector<nlohmann::json> notifications_;
  std::size_t notifications_received_ = 0;
  std::map<std::string, std::size_t, std::less<>> notifications_by_method_;
  std::size_t notifications_of_later_methods_ = 0;
  std::vector<nlohmann::json> server_requests_;
  std::vector<DuplicateMember> result_duplicates_;
  // The held subscription: its id (null: none), its stream (HTTP), and what the stream delivered,
  // which its reader's thread fills and the session's own thread empties.
  struct HeldInbox {
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<nlohmann::json> messages;
  };
  nlohmann::json held_id_;
  bool held_acknowledged_ = false, held_ended_ = false;
  std::string held_end_;
  std::shared_ptr<HeldInbox> held_inbox_ = std::make_shared<HeldInbox>();
  std::unique_ptr<HeldStream> held_stream_;  // last: its reader is joined before the rest goes
};

}  // namespace mcp_hints
