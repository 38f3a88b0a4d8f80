#pragma once
// The scripted mock server: serves one server of a scenario, answering as its scripts say, and
// records what it is sent. It judges nothing: checks judge the record.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::mock {

// Something to do after handling a message: send a message (after a delay), record a note, or close.
struct Outgoing {
  std::chrono::milliseconds delay{0};  // from when the message was handled
  bool close = false;                  // close the connection (stdio: exit) after the delay
  nlohmann::json answers;              // the request id this answers, for cancellation (and a
                                       // scripted result's id: not to be changed once made)
  int http_status = 0;                 // over HTTP, the status to answer with (0: 200)
  std::uint64_t subscription = 0;      // the subscriptions/listen stream this acknowledges (0: none):
                                       // the front keeps it open and sends what is delivered on it
  std::string note;                    // recorded as an event when due, never sent

  Outgoing(nlohmann::json message_to_send = {}, std::chrono::milliseconds delay_ = {}, bool close_ = false,
           nlohmann::json answers_ = {})
      : delay(delay_), close(close_), answers(std::move(answers_)), message_(std::move(message_to_send)) {}
  // The result a script gives, to request `id`: kept as the scenario holds it, and sent from
  // `text` (its JSON text, written once), not copied into a message and written again for every
  // answer. Both must outlive this; the server that made it keeps them.
  static Outgoing scripted_result(const nlohmann::json& id, const nlohmann::json& result, const std::string& text,
                                  std::chrono::milliseconds delay);

  // Whether it is a scripted result not yet made a message (then it is a result, to `answers`).
  bool scripted() const { return result_ != nullptr; }
  // Whether a message is sent (a close or a note alone sends none).
  bool sends() const { return result_ != nullptr || !message_.is_null(); }
  // The message sent; null when none is. A scripted result is made a message when first asked.
  const nlohmann::json& message() const;
  nlohmann::json& message();  // to change it: a scripted result is sent from its message after
  // Appends the message as one line of JSON: the bytes json_text(message()) gives.
  void append_text(std::string& out) const;

 private:
  mutable nlohmann::json message_;
  const nlohmann::json* result_ = nullptr;  // a scripted result sent as {"id", "jsonrpc", "result"}
  const std::string* result_text_ = nullptr;
};

// A message due on a subscriptions/listen stream, and when (a script's delay counts from the call
// that made it).
struct Delivery {
  Clock::time_point due;
  nlohmann::json message;
};

class MockServer {
 public:
  explicit MockServer(ServerSpec spec);
  // Outgoing messages point into the server: it stays where it was made.
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  // One message from a client (any JSON value), under an authorization context (its name in the
  // scenario; empty: none); what to send back. A batch is taken when `batches` says the session
  // agreed on a revision that has them (takes_batches), and refused otherwise. Thread-safe.
  std::vector<Outgoing> handle(const nlohmann::json& message, const std::string& context = {}, bool batches = false);
  // One line or body of text: a parse error is answered with -32700. `reader` (if given) reads
  // it and keeps the message when the text was JSON (else null), for the record: one reader for
  // a connection's messages builds each into the one before, and reads a request that repeats
  // the one before but for its id as that (MessageReader).
  std::vector<Outgoing> handle_text(std::string_view text, MessageReader* reader = nullptr,
                                    const std::string& context = {}, bool batches = false);
  // A reader for one connection's messages, as handle_text takes it: requests repeat but for their id.
  static MessageReader request_reader() { return MessageReader("id"); }
  // A JSON-RPC batch, which only 2025-03-26 has (a server MUST accept one, and initialize MUST NOT
  // be in one): each element handled in turn, the answers sent back as one array once the last is
  // due (an empty array, or one of nothing but notifications, is answered as JSON-RPC says).
  std::vector<Outgoing> handle_batch(const nlohmann::json& batch, const std::string& context = {});
  // Whether a session that agreed on this revision may send batches.
  static bool takes_batches(std::string_view version);
  // The revision the answer to an initialize request agreed on; empty for any other request, or
  // when initialize was refused.
  static std::string agreed_version(const nlohmann::json& request, const std::vector<Outgoing>& outs);
  // The authorization context a credential names ("Bearer TOKEN": an Authorization header, or
  // over stdio the MCP_HINTS_AUTHORIZATION environment variable); empty when it names none.
  std::string authorization_context(std::string_view credential) const;
  // Whether the scenario declares authorization contexts: a request must then carry one.
  bool requires_authorization() const { return !spec_.authorizations.empty(); }
  // The inputSchema of the tool `name` in the catalog served now under an authorization context;
  // nullopt when it serves no such tool (or the tool has none).
  std::optional<nlohmann::json> tool_input_schema(const std::string& name, const std::string& context);
  // A request id the client cancelled (notifications/cancelled), if this message is one.
  static std::optional<nlohmann::json> cancelled_request(const nlohmann::json& message);

  // The stateless era's subscriptions/listen streams, which the fronts hold open: what was delivered
  // on one since it was last asked (in order, each with when it is due), waiting up to `wait` when
  // nothing was; empty once it has ended.
  std::vector<Delivery> take_deliveries(std::uint64_t subscription, std::chrono::milliseconds wait = {});
  // Ends a subscription: its stream closed, or (stdio) the client cancelled its request.
  void end_subscription(std::uint64_t subscription);
  static constexpr std::size_t kMaxSubscriptions = 1024;     // open at once; more are refused
  static constexpr std::size_t kMaxQueuedDeliveries = 4096;  // per subscription, not yet taken

  const ServerSpec& spec() const { return spec_; }
  // Whether it speaks the stateless era (then a request without a session is no refusal).
  bool speaks_stateless() const { return !stateless_versions().empty(); }
  // Whether it speaks the session era (initialize).
  bool speaks_legacy() const { return !legacy_versions().empty(); }

 private:
  std::vector<Outgoing> handle_stateless(const nlohmann::json& id, const std::string& method,
                                         const nlohmann::json& params, const std::string& context);
  std::vector<Outgoing> call_tool(const nlohmann::json& id, const nlohmann::json& params, ProtocolEra era,
                                  const std::string& context);
  // A call of a tool whose last answer asked for input (an InputRequiredResult): refused with
  // -32021 when it does not declare what the question needs, asked again when it answers nothing
  // or only part, refused when its answer is malformed or its requestState wrong; nullopt when it
  // answers in full (the script goes on) or nothing is open.
  std::optional<std::vector<Outgoing>> answer_open_input(const nlohmann::json& id, const std::string& tool,
                                                         const nlohmann::json& params);
  // How a request answers `asked` (an InputRequiredResult's inputRequests and requestState): not
  // at all or only in part, so it is asked again (SEP-2322: "the server SHOULD respond with a new
  // InputRequiredResult requesting the missing information again, rather than returning an
  // error"); in a malformed way or with another requestState, refused with -32602 and `why`; or in full.
  enum class InputAnswer { in_full, missing, malformed };
  // The InputRequiredResult that asks `asked` (inputRequests and/or requestState).
  static nlohmann::json input_required_result(const nlohmann::json& asked);
  // A stateless request that lacks a capability `required` names (capability -> settings) in its
  // _meta's clientCapabilities: -32021 listing those it lacks (HTTP 400, 2026-07-28, basic: "the
  // server MUST return a MissingRequiredClientCapabilityError"); nullopt when it declares them all.
  static std::optional<std::vector<Outgoing>> refuse_undeclared(const nlohmann::json& id, const nlohmann::json& params,
                                                                const nlohmann::json& required);
  static InputAnswer answer_to_input(const nlohmann::json& asked, const nlohmann::json& params, std::string& why);
  // A scripted result (the default one or a step's), answering request `id`.
  Outgoing scripted_result(const nlohmann::json& id, const nlohmann::json& result,
                           std::chrono::milliseconds delay = {}) const;
  // subscriptions/listen: the stream opened and acknowledged with what of its filter is honoured.
  std::vector<Outgoing> listen(const nlohmann::json& id, const nlohmann::json& params, const std::string& context);
  // tools/list_changed delivered, at `due`, on every stream that asked for it and sees the shared
  // catalog; how many streams it went to.
  std::size_t announce_tools_changed(Clock::time_point due);
  std::vector<Outgoing> list_tools(const nlohmann::json& id, const nlohmann::json& params, ProtocolEra era,
                                   const std::string& context);
  // One page of a listing, its items under `key`, from the cursor the request gives ("page-N");
  // in the stateless era with ttlMs and cacheScope.
  std::vector<Outgoing> list_page(const nlohmann::json& id, const nlohmann::json& params, ProtocolEra era,
                                  const char* key, const std::vector<nlohmann::json>& items) const;
  // What it declares in initialize and server/discover: tools (listChanged as given), and prompts
  // and resources when the scenario serves them.
  nlohmann::json capabilities(bool tools_list_changed) const;
  // The prompts and resources methods (served_content.cpp) when the scenario serves them; nullopt
  // for any other method, or one of a capability it does not declare.
  std::optional<std::vector<Outgoing>> serve_content(const nlohmann::json& id, const std::string& method,
                                                     const nlohmann::json& params, ProtocolEra era) const;
  std::vector<Outgoing> get_prompt(const nlohmann::json& id, const nlohmann::json& params, ProtocolEra era) const;
  std::vector<Outgoing> read_resource(const nlohmann::json& id, const nlohmann::json& params, ProtocolEra era) const;
  // The catalog served under an authorization context: its own, else the one served now.
  const std::vector<nlohmann::json>& catalog_for(const std::string& context) const;
  // The revisions it speaks (the scenario's, else the legacy ones), and those of each era: read
  // for every request, so told apart once, as the server is made.
  const std::vector<std::string>& spoken_versions() const { return spoken_; }
  const std::vector<std::string>& legacy_versions() const { return legacy_; }
  const std::vector<std::string>& stateless_versions() const { return stateless_; }
  // Error -32022 for a version it does not speak, with the one requested and those it does.
  nlohmann::json unsupported_version(const nlohmann::json& id, const nlohmann::json& requested) const;
  long long ttl_ms() const;  // of its listings and discover results
  // An answer sent at once; over HTTP with this status (the stateless era's 400s and 404s; 0: 200).
  static std::vector<Outgoing> answer(nlohmann::json message, int http_status = 0);
  // One message to send, moved into the list (a braced list would copy it).
  static std::vector<Outgoing> only(Outgoing out);

  ServerSpec spec_;
  std::vector<std::string> spoken_, legacy_, stateless_;
  std::vector<nlohmann::json> tools_;  // the catalog served now (list_changed replaces it)
  // What prompts/list, resources/list and resources/templates/list show: the scenario's entries'
  // prompt, resource and resourceTemplate members.
  std::vector<nlohmann::json> listed_prompts_, listed_resources_, listed_templates_;
  std::map<std::string, std::size_t> calls_;           // calls so far, by tool
  std::map<std::string, nlohmann::json> open_inputs_;  // by tool: the input_required result awaiting an answer
  // The JSON text of each scripted result (the default one and every result step's), by its
  // address in spec_: the server is never moved (deleted below), and spec_ never changed.
  std::unordered_map<const nlohmann::json*, std::string> result_texts_;
  struct Subscription {
    nlohmann::json request_id;  // its subscriptionId
    std::string context;        // the authorization context it was opened under
    bool tools = false;         // toolsListChanged honoured
    std::deque<Delivery> queued;
  };
  std::map<std::uint64_t, Subscription> subscriptions_;
  std::uint64_t next_subscription_ = 1;
  std::mutex mutex_;
  std::condition_variable delivered_;
};

// Fronts. Both run until the client goes (stdio: stdin closes) or a step closes (stdio), or the
// process is signalled (HTTP). max_message bounds one incoming line or body; http bounds what else
// an HTTP client may hold or send (its max_body is max_message).
struct ServeOptions {
  Recorder* recorder = nullptr;
  std::size_t max_message = std::size_t{4} << 20;
  HttpServerLimits http;
  std::string host = "127.0.0.1";
  int port = 0;
};

// The environment variable that gives a stdio mock server its authorization context, as the
// Authorization header would over HTTP ("Bearer TOKEN"): over stdio credentials come from the
// environment, so a client acting for two contexts starts one server process for each.
inline constexpr const char* kAuthorizationEnv = "MCP_HINTS_AUTHORIZATION";

// Serves on stdin/stdout; returns the process exit code.
int serve_stdio(MockServer& server, const ServeOptions& options);
// Serves Streamable HTTP on host:port; prints the URL as the first line of stdout; returns the
// exit code once SIGINT or SIGTERM arrives.
int serve_http(MockServer& server, const ServeOptions& options);

}  // namespace mcp_hints::mock
