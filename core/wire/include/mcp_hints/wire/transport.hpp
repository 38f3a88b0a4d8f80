#pragma once
// Moving JSON-RPC messages to and from an MCP server: over stdio (a child process) or
// Streamable HTTP. Knows nothing of hints. Every wait has a deadline.
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/wire/child_process.hpp"

namespace mcp_hints {

// The transport cannot go on: the peer closed, died, or sent something unreadable.
class TransportError : public Error {
 public:
  explicit TransportError(const std::string& what) : Error(Category::incomplete, what) {}
};

// A request got no answer within its timeout. The connection may still be good: the request was
// cancelled, and the server may or may not have done what it asked.
class RequestTimeout : public TransportError {
 public:
  explicit RequestTimeout(const std::string& what) : TransportError(what) {}
};

struct TransportLimits {
  std::size_t max_message = std::size_t{16} << 20;  // one message (stdio line, HTTP body, SSE event)
  std::size_t max_noise_lines = 1000;               // non-protocol stdout lines tolerated
};

// A message the peer is expected to send again, to the byte but for its id (a server answering a
// request it was asked before the same way), and what to take in its place: the caller's stand-in
// (an object: the message, or what of it the caller still needs), which is given the id the repeat
// came with. The message gave no member twice, so neither does its repeat.
struct ExpectedRepeat {
  std::string text;                                                 // the message as it came
  std::pair<std::size_t, std::size_t> id_span;                      // where the value of its id stands in text
  nlohmann::json::value_t id_type = nlohmann::json::value_t::null;  // the type of that value
  nlohmann::json in_place;

  // The id `other` came with where it repeats the message: the same text outside the ids and an
  // id of the same type that reads as JSON within the limits (value_in_place); nullopt otherwise.
  std::optional<nlohmann::json> id_if_repeated(std::string_view other, const TransportLimits& limits) const;
};

// A request's stream held open beside the conversation (the stateless era's subscriptions/listen
// over Streamable HTTP), read on a thread of its own until it ends or its holder lets it go.
class HeldStream {
 public:
  virtual ~HeldStream() = default;  // closes the stream (which ends what it was for) and joins its reader
  // Whether the stream ended on its own (the server closed it, or it broke), and why.
  virtual bool ended() const = 0;
  virtual std::string why_ended() const = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends one message; throws TransportError when it cannot.
  virtual void send(const nlohmann::json& message, Deadline deadline) = 0;
  // The next message from the server; nullopt when the deadline passes first. Throws
  // TransportError when the server is gone or sent what cannot be read.
  virtual std::optional<nlohmann::json> receive(Deadline deadline) = 0;
  virtual void close() = 0;
  // The text of the message receive() last returned, as it came (stdio: its line), until the
  // next one is received; empty where the transport does not keep it.
  virtual std::string_view last_text() const { return {}; }
  // A message to take as `expected` again without reading it again, until told nullptr (stdio: a
  // line; where the transport keeps no text, nothing is taken so).
  virtual void expect_repeat(std::shared_ptr<const ExpectedRepeat>) {}
  // Whether the message receive() last returned was the expected repeat (its stand-in); its text is
  // last_text().
  bool repeated() const { return repeated_; }
  // Starts closing without waiting (stdio: the server is killed, not yet reaped), so that the
  // caller can work while the server goes down; close() then finishes.
  virtual void begin_close() {}
  // For messages: what is spoken to ("stdio: node server.js", "http://127.0.0.1:3000/mcp").
  virtual std::string target() const = 0;
  // What the server said besides protocol (stderr, non-JSON lines), for failure reports.
  virtual std::string diagnostics() { return {}; }
  // Lines on stdout that were not JSON-RPC messages (stdio only): how many and the first one.
  virtual std::size_t noise_count() const { return 0; }
  virtual std::string first_noise() const { return {}; }
  // Called with the version spoken from now on (HTTP sends it as a header, and from the stateless
  // era on also the Mcp-Method and Mcp-Name headers, without a session); empty: none yet.
  virtual void set_protocol_version(const std::string&) {}
  // Whether the peer can still be spoken to (stdio: the server has not exited).
  virtual bool alive() { return true; }
  // Whether each request has a response stream of its own (HTTP), whose closing cancels it in the
  // stateless era; over stdio a notifications/cancelled must.
  virtual bool stream_per_request() const { return false; }
  // The HTTP status of the last answer to a POST (0 for stdio).
  virtual int last_http_status() const { return 0; }
  // HTTP: headers of the next message sent only, each replacing the one the transport would send
  // (no value: left out), to probe how a server answers headers a correct client would not send.
  using HeaderOverrides = std::vector<std::pair<std::string, std::optional<std::string>>>;
  virtual void override_next_headers(HeaderOverrides) {}
  // Answers a request the server makes on a stream that stays open until the server has the answer
  // (Streamable HTTP: a POST's SSE stream, which receive() cannot hand over before it ends): the
  // transport asks this at once, sends the answer it returns, and does not queue the request.
  // Unset, such requests are queued like any message (stdio hands every message over as it comes).
  using ServerRequestAnswerer = std::function<nlohmann::json(const nlohmann::json& request)>;
  virtual void set_server_request_answerer(ServerRequestAnswerer) {}
  // Streamable HTTP, session era: while a request's POST is under way, also hold the standalone GET
  // stream open, where a server may send what the call waits on; its requests are answered by the
  // answerer, the rest is queued once the POST is over. Off: the GET is opened only to wait.
  virtual void listen_during_requests(bool) {}
  // Sends `request` on a connection of its own and holds its answer's stream open, handing each
  // message that comes on it to `deliver` as it comes (on the reader's thread), until the handle is
  // destroyed, the stream ends or `deliver` returns false (it takes no more: a holder bounds what it
  // keeps unread). nullptr where requests have no stream of their own (stdio: what answers a request
  // comes on the one channel, which receive() reads).
  using Deliver = std::function<bool(nlohmann::json message)>;
  virtual std::unique_ptr<HeldStream> hold_stream(const nlohmann::json& /*request*/, Deliver /*deliver*/) {
    return nullptr;
  }
  // Bytes of messages received so far (to bound what a listing may take in).
  std::size_t bytes_received() const { return bytes_received_; }
  // The members the message receive() last returned gave twice in one object (JSON pointers into
  // that message); it holds the last value of each, as most parsers keep.
  const std::vector<DuplicateMember>& duplicate_members() const { return duplicates_; }

  // A message as received, with the members it repeats.
  struct Received {
    nlohmann::json message;
    std::vector<DuplicateMember> duplicates;
  };
  // The one reading of a message's text: within the limits (a message, its strings), repeated
  // members kept and listed. Throws InputError.
  static Received read_message(std::string_view text, const TransportLimits& limits);

 protected:
  std::size_t bytes_received_ = 0;
  std::vector<DuplicateMember> duplicates_;
  bool repeated_ = false;
};

// A server started as a child process, newline-delimited JSON-RPC on its stdin and stdout.
class StdioTransport : public Transport {
 public:
  StdioTransport(const ProcessOptions& process, TransportLimits limits = {});
  ~StdioTransport() override;
  void send(const nlohmann::json& message, Deadline deadline) override;
  std::optional<nlohmann::json> receive(Deadline deadline) override;
  void close() override;
  void begin_close() override;
  std::string_view last_text() const override { return last_line_; }
  void expect_repeat(std::shared_ptr<const ExpectedRepeat> expected) override { expected_ = std::move(expected); }
  std::string target() const override;
  std::string diagnostics() override;
  std::size_t noise_count() const override { return noise_count_; }
  std::string first_noise() const override { return first_noise_; }
  pid_t pid() const { return process_.pid(); }
  bool alive() override { return !process_.exited(); }

 private:
  ChildProcess process_;
  TransportLimits limits_;
  std::string command_;
  std::string buffer_;
  std::string last_line_;  // the last message's line (last_text)
  std::shared_ptr<const ExpectedRepeat> expected_;
  std::size_t scanned_ = 0;  // buffer_'s first bytes known to hold no newline: a long line is scanned once
  std::size_t line_number_ = 0;
  std::size_t noise_count_ = 0;
  std::string first_noise_;
};

// The server side of Streamable HTTP, minimal: each request is handed to a handler that says
// what to answer. Binds to loopback by default. Used by sample and mock servers.
struct HttpRequestView {
  std::string method;            // POST, GET, DELETE
  std::string path;              // the request target's path (a server listening on "/*" serves every one)
  std::string session_id;        // Mcp-Session-Id, if sent
  std::string protocol_version;  // MCP-Protocol-Version, if sent
  std::string origin;            // Origin, if sent
  std::string authorization;     // Authorization, if sent
  std::string mcp_method;        // Mcp-Method, if sent (2026-07-28)
  std::string mcp_name;          // Mcp-Name, if sent (2026-07-28)
  std::string content_type;      // Content-Type, if sent
  std::string accept;            // Accept, if sent
  std::string last_event_id;     // Last-Event-ID, if sent (resuming an SSE stream)
  // The Mcp-Param-{Name} headers (2026-07-28, SEP-2243): {Name} as sent, and the value.
  std::vector<std::pair<std::string, std::string>> params;
  bool has_mcp_method = false, has_mcp_name = false, has_protocol_version = false;
  bool has_content_type = false, has_accept = false;
  std::string body;
};

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";  // or text/event-stream: body is then SSE text
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool stall_after_headers = false;  // send the headers, then nothing until the server stops
  // What the answer sends after its body, piece by piece as each is returned (the call may wait,
  // as a server waits for what a stream's later events need; an empty piece sends nothing), until
  // nullopt ends it, the client closes the connection or the server stops: a call that returns
  // now and then lets the server notice the last two. Unset: the body is the whole answer.
  std::function<std::optional<std::string>()> more;
};

// What one HTTP client may hold or send, so that no client can starve the others or exhaust memory:
// every connection is served on its own thread (up to max_connections), and every limit is applied
// while reading.
struct HttpServerLimits {
  std::size_t max_body = std::size_t{16} << 20;     // a request body; beyond: 413, read no further
  std::size_t max_header = std::size_t{16} << 10;   // request line and headers; beyond: 431
  std::chrono::milliseconds idle_timeout{5000};     // no request under way (or nothing moves): closed
  std::chrono::milliseconds header_timeout{10000};  // request line and headers, from their first byte: 408
  std::size_t max_connections = 512;                // served at once; one more is answered 503 and closed
};

class HttpServer {
 public:
  using Handler = std::function<HttpReply(const HttpRequestView&)>;
  explicit HttpServer(Handler handler, HttpServerLimits limits = {});
  ~HttpServer();  // stops
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (0: a free port) and serves `path` on background threads; returns the port.
  // "/*" serves every path, and the URL is then the origin alone.
  // Throws TransportError when it cannot bind.
  int listen(const std::string& host, int port, const std::string& path = "/mcp");
  // The endpoint's URL, e.g. http://127.0.0.1:41234/mcp.
  std::string url() const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// A Streamable HTTP client transport to url (POST with JSON or SSE answers, session id and
// protocol version headers, DELETE on close); `headers` go with every request (e.g. Authorization).
std::unique_ptr<Transport> make_http_transport(const std::string& url, const TransportLimits& limits = {},
                                               const HttpHeaders& headers = {});

// A server to talk to: a command to start over stdio, or a Streamable HTTP endpoint.
struct ServerTarget {
  std::vector<std::string> command;                      // stdio: the server's command line
  std::string url;                                       // or Streamable HTTP: the endpoint
  std::vector<std::pair<std::string, std::string>> env;  // stdio: added to the environment
  HttpHeaders headers;                                   // HTTP: sent with every request
  std::string working_dir{};                             // stdio: where the server starts ("": here)
  std::string describe() const;
};

// Opens a transport to the target (starts the server for stdio).
std::unique_ptr<Transport> connect(const ServerTarget& target, const TransportLimits& limits);

}  // namespace mcp_hints
