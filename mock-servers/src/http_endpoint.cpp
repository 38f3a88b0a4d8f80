// The mock's Streamable HTTP endpoint (http_endpoint.hpp): what a request is answered, past the
// HTTP front's limits.
#include "mcp_hints/mock/http_endpoint.hpp"

#include <cctype>
#include <thread>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/param_headers.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;

namespace {

// Loopback origins only: a page elsewhere must not drive a local server (DNS rebinding).
bool allowed_origin(const std::string& origin) {
  if (origin.empty()) return true;
  for (const char* prefix :
       {"http://127.0.0.1", "https://127.0.0.1", "http://localhost", "https://localhost", "http://[::1]"}) {
    const std::string p = prefix;
    if (origin.rfind(p, 0) == 0 && (origin.size() == p.size() || origin[p.size()] == ':' || origin[p.size()] == '/'))
      return true;
  }
  return false;
}

// Whether a request speaks the stateless era: it carries a protocol version in its _meta.
bool is_stateless_request(const json& message) {
  return jsonrpc::classify(message) == jsonrpc::Kind::request && message.contains("params") &&
         names_protocol_version(message["params"]);
}

// What is wrong with a stateless request's mirrored headers; empty when nothing is. Mcp-Name and the
// Mcp-Param headers of a tool's x-mcp-header parameters are compared once decoded (SEP-2243).
std::string header_mismatch(const HttpRequestView& req, const json& message, MockServer& server,
                            const std::string& context) {
  auto differs = [](bool sent, const std::string& header, const std::string& name, const std::string& body,
                    bool encoded = false) {
    if (!sent) return name + " header missing (the body says \"" + body + "\")";
    const auto value = encoded ? decoded_header_value(header) : std::optional<std::string>(header);
    if (!value) return name + " header \"" + header + "\" has invalid characters or Base64";
    if (*value != body) return name + " header \"" + *value + "\" does not match the body's \"" + body + "\"";
    return std::string();
  };
  const json& params = message["params"];
  // A version that is not a string is the engine's to refuse (-32022).
  if (const json& version = params["_meta"][kProtocolVersionMeta]; version.is_string())
    if (auto why = differs(req.has_protocol_version, req.protocol_version, "MCP-Protocol-Version", version);
        !why.empty())
      return why;
  const std::string method = message["method"];
  if (auto why = differs(req.has_mcp_method, req.mcp_method, "Mcp-Method", method); !why.empty()) return why;
  // Mcp-Name mirrors what tools/call and prompts/get name and what resources/read reads.
  const char* key = method == "tools/call" || method == "prompts/get" ? "name"
                    : method == "resources/read"                      ? "uri"
                                                                      : nullptr;
  if (key && params.contains(key) && params[key].is_string())
    if (auto why = differs(req.has_mcp_name, req.mcp_name, "Mcp-Name", params[key].get<std::string>(), true);
        !why.empty())
      return why;
  if (method != "tools/call" || !params.contains("name") || !params["name"].is_string()) return {};
  const auto schema = server.tool_input_schema(params["name"].get<std::string>(), context);
  return schema ? param_header_mismatch(*schema, params.value("arguments", json::object()), req.params) : std::string();
}

// A header's media type, lower case, without parameters ("application/json; charset=utf-8").
std::string media_type(std::string_view value) {
  value = value.substr(0, value.find(';'));
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  return ascii_lower(value);
}

// Whether a POST's Accept lists both answer forms (the spec's MUST), by name or by a wildcard.
bool accepts_both(const HttpRequestView& req) {
  if (!req.has_accept) return false;
  bool json_ok = false, sse_ok = false;
  std::string_view rest = req.accept;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string type = media_type(rest.substr(0, comma));
    json_ok = json_ok || type == "application/json" || type == "application/*" || type == "*/*";
    sse_ok = sse_ok || type == "text/event-stream" || type == "text/*" || type == "*/*";
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return json_ok && sse_ok;
}

HttpReply text_reply(int status, const std::string& text) {
  HttpReply reply;
  reply.status = status;
  reply.content_type = "text/plain";
  reply.body = text;
  return reply;
}

}  // namespace

void CancelledRequests::add(const json& id) {
  if (capacity_ == 0) return;
  if (order_.size() == capacity_) {
    ids_.erase(ids_.find(order_.front()));
    order_.pop_front();
  }
  order_.push_back(id.dump());
  ids_.insert(order_.back());
}

bool CancelledRequests::contains(const json& id) const { return ids_.count(id.dump()) > 0; }

HttpEndpoint::HttpEndpoint(MockServer& server, Recorder* recorder, bool keep_time)
    : server_(server), recorder_(recorder), keep_time_(keep_time) {}

bool HttpEndpoint::session_open(const std::string& id) const {
  std::lock_guard lock(mutex_);
  return sessions_.count(id) > 0;
}

std::string HttpEndpoint::open_session() {
  std::lock_guard lock(mutex_);
  std::string id;
  static const char* hex = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) id += hex[rng_() % 16];
  sessions_.emplace(id, std::string());
  return id;
}

std::string HttpEndpoint::session_version(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto open = sessions_.find(id);
  return open == sessions_.end() ? std::string() : open->second;
}

void HttpEndpoint::agree(const std::string& id, const std::string& version) {
  std::lock_guard lock(mutex_);
  if (auto open = sessions_.find(id); open != sessions_.end()) open->second = version;
}

void HttpEndpoint::close_session(const std::string& id) {
  std::lock_guard lock(mutex_);
  sessions_.erase(id);
}

void HttpEndpoint::cancel(const json& id) {
  std::lock_guard lock(mutex_);
  cancelled_.add(id);
}

bool HttpEndpoint::cancelled(const json& id) const {
  std::lock_guard lock(mutex_);
  return cancelled_.contains(id);
}

HttpReply HttpEndpoint::handle(const HttpRequestView& req) {
  if (!allowed_origin(req.origin))
    return text_reply(403, "Forbidden: Origin " + req.origin + " is not a loopback origin");
  const std::string connection = "http:" + (req.session_id.empty() ? std::string("-") : req.session_id);
  if (req.method == "DELETE") {
    if (!session_open(req.session_id)) return text_reply(404, "Not Found: unknown session");
    close_session(req.session_id);
    if (recorder_) recorder_->event(connection, "session-end");
    HttpReply reply;
    reply.status = 204;
    return reply;
  }
  if (req.method == "GET")
    return text_reply(405, "Method Not Allowed: this server sends notifications on POST streams");
  return handle_post(req, connection);
}

HttpReply HttpEndpoint::handle_post(const HttpRequestView& req, const std::string& connection) {
  // A POST carries one JSON-RPC message and accepts both answer forms (the body's size is the
  // HTTP front's to bound, while it reads).
  if (!accepts_both(req)) {
    HttpReply reply =
        text_reply(406, "Not Acceptable: the Accept header must list application/json and text/event-stream");
    if (recorder_) recorder_->event(connection, "refused: HTTP 406 " + reply.body);
    return reply;
  }
  if (media_type(req.content_type) != "application/json") {
    HttpReply reply = text_reply(415, "Unsupported Media Type: the Content-Type must be application/json");
    if (recorder_) recorder_->event(connection, "refused: HTTP 415 " + reply.body);
    return reply;
  }
  json parsed;
  try {
    parsed = parse_json_document(req.body).value;
  } catch (const InputError&) {
    parsed = json();  // handle_text below answers with the parse error
  }
  const bool initialize = parsed.is_object() && parsed.value("method", json()) == "initialize";
  const std::string context = server_.authorization_context(req.authorization);
  std::string session = req.session_id;
  // A request refused at the HTTP level is recorded with why, and never reaches the engine: it
  // must not use up a scripted step.
  auto record_refusal = [&](const std::string& conn, int status, const std::string& why) {
    if (recorder_) {
      recorder_->message(conn, "in", parsed, context);
      recorder_->event(conn, "refused: HTTP " + std::to_string(status) + " " + why);
    }
  };
  auto refuse = [&](int status, const std::string& why) {
    record_refusal(connection, status, why);
    return text_reply(status, why);
  };
  // A scenario with authorization contexts wants one of them on every message (RFC 6750).
  if (server_.requires_authorization() && context.empty()) {
    const std::string why = req.authorization.empty()
                                ? "Unauthorized: no Authorization header (Bearer TOKEN)"
                                : "Unauthorized: the bearer token is none of the scenario's authorization contexts";
    record_refusal(is_stateless_request(parsed) ? std::string(kStatelessHttpConnection) : connection, 401, why);
    HttpReply reply = text_reply(401, why);
    reply.headers.emplace_back("WWW-Authenticate", "Bearer");
    return reply;
  }
  // A request that names a stateless revision, and any sessionless one but initialize to a server
  // that speaks that era alone (the engine then says what is missing), have no session to check.
  // A server of both eras cannot tell which era a sessionless request without a version is of.
  const bool sessionless_request =
      req.session_id.empty() && !initialize && jsonrpc::classify(parsed) == jsonrpc::Kind::request;
  if (sessionless_request && !is_stateless_request(parsed) && server_.speaks_stateless() && server_.speaks_legacy())
    return refuse(400, "Bad Request: Mcp-Session-Id missing (and no protocol version in _meta)");
  const bool stateless = is_stateless_request(parsed) || (server_.speaks_stateless() && sessionless_request);
  if (stateless) {
    // The stateless era: no session; the headers mirror the body, for intermediaries (SEP-2243).
    if (const std::string mismatch =
            is_stateless_request(parsed) ? header_mismatch(req, parsed, server_, context) : std::string();
        !mismatch.empty()) {
      if (recorder_) {
        recorder_->message(std::string(kStatelessHttpConnection), "in", parsed, context);
        recorder_->event(std::string(kStatelessHttpConnection), std::string(kHeaderMismatchRefusal) + mismatch);
      }
      HttpReply reply;
      reply.status = 400;
      reply.body = json_text(jsonrpc::error(parsed["id"], header_mismatch_code, "Header mismatch: " + mismatch));
      return reply;
    }
    session.clear();
  } else if (initialize) {
    session = open_session();
  } else if (jsonrpc::classify(parsed) != jsonrpc::Kind::invalid || (parsed.is_array() && !session.empty())) {
    // Input that is no message (not JSON, a batch sent without a session) has no session to check:
    // the engine refuses it. A batch in a session is the session's to take or refuse (2025-03-26).
    if (session.empty()) return refuse(400, "Bad Request: Mcp-Session-Id missing");
    if (!session_open(session)) return refuse(404, "Not Found: unknown session");
  }
  // A session that agreed on 2025-03-26 takes batches; its batch is recorded message by message.
  const bool batches = !stateless && !session.empty() && MockServer::takes_batches(session_version(session));
  const std::string conn =
      stateless ? std::string(kStatelessHttpConnection) : "http:" + (session.empty() ? std::string("-") : session);
  if (recorder_) {
    if (parsed.is_null())
      recorder_->raw(conn, req.body);
    else if (batches)
      recorder_->batch(conn, "in", parsed, context);
    else
      recorder_->message(conn, "in", parsed, context);
  }
  auto outs =
      parsed.is_null() ? server_.handle_text(req.body, nullptr, context) : server_.handle(parsed, context, batches);
  if (auto cancelled = MockServer::cancelled_request(parsed)) cancel(*cancelled);
  HttpReply reply;
  // A refused initialize opens no session.
  const bool refused = outs.size() == 1 && outs.front().http_status >= 400;
  if (initialize && refused) close_session(session);
  if (initialize && !refused) {
    reply.headers.emplace_back("Mcp-Session-Id", session);
    agree(session, MockServer::agreed_version(parsed, outs));
  }
  if (outs.size() == 1 && outs.front().subscription) return subscription_stream(outs.front(), conn, context);
  std::vector<const Outgoing*> send;
  // A session deleted while this request waits (a DELETE racing it) takes its answers with it.
  auto session_gone = [&] { return !stateless && !initialize && !session.empty() && !session_open(session); };
  // Each answer's delay counts from the request's arrival, as over stdio: a list_changed note or
  // progress before the result does not push the result later.
  const auto arrived = Clock::now();
  for (const auto& out : outs) {
    // A delayed answer waits here, in its own request, unless the client cancels it.
    const auto due = arrived + (keep_time_ ? out.delay : std::chrono::milliseconds(0));
    while (Clock::now() < due && !(!out.answers.is_null() && cancelled(out.answers)) && !session_gone())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!out.answers.is_null() && cancelled(out.answers)) continue;
    if (session_gone()) {
      // The client ended its session (or the script closed it) while the answer waited: nothing
      // the client sent is refused, so this is no refusal of its request.
      if (recorder_) recorder_->event(conn, "session-gone: the session was deleted while the answer waited (HTTP 404)");
      return text_reply(404, "Not Found: the session was deleted while the answer waited");
    }
    if (out.close) {
      close_session(session);
      if (recorder_) recorder_->event(conn, kScriptedCloseEvent);
      return text_reply(404, "Not Found: the session was closed");
    }
    if (recorder_ && !out.note.empty()) recorder_->event(conn, out.note);
    if (out.sends()) {
      if (recorder_) recorder_->batch(conn, "out", out.message(), context);
      send.push_back(&out);
    }
  }
  if (send.empty()) {
    reply.status = 202;
    reply.content_type = "text/plain";
    return reply;
  }
  if (send.size() == 1) {
    if (refused) reply.status = outs.front().http_status;
    // Input that is no message (not JSON, a batch, not JSON-RPC) cannot be accepted: 400, with
    // the JSON-RPC error that has no id.
    if (!send.front()->scripted()) {  // a scripted answer is a result
      const json& message = send.front()->message();
      if (jsonrpc::classify(message) == jsonrpc::Kind::error && message["id"].is_null()) reply.status = 400;
    }
    send.front()->append_text(reply.body);
    return reply;
  }
  reply.content_type = "text/event-stream";
  for (const Outgoing* out : send) {
    reply.body += "event: message\ndata: ";
    out->append_text(reply.body);
    reply.body += "\n\n";
  }
  return reply;
}

HttpReply HttpEndpoint::subscription_stream(const Outgoing& ack, const std::string& connection,
                                            const std::string& context) {
  // The stream's state, ended (its subscription with it) when the HTTP front drops the reply: the
  // client closed the stream, or the server stopped.
  struct Stream {
    MockServer& server;
    Recorder* recorder;
    std::string connection, context;
    std::uint64_t number;
    nlohmann::json id;
    bool keep_time;
    std::deque<Delivery> queued;
    ~Stream() {
      server.end_subscription(number);
      if (recorder) recorder->event(connection, "subscription " + id.dump() + " ended (its stream closed)");
    }
  };
  auto stream =
      std::make_shared<Stream>(server_, recorder_, connection, context, ack.subscription, ack.answers, keep_time_);
  if (recorder_) recorder_->message(connection, "out", ack.message(), context);
  HttpReply reply;
  reply.content_type = "text/event-stream";
  reply.body = "event: message\ndata: " + json_text(ack.message()) + "\n\n";
  // Each call waits a moment at most, so that the front notices a client gone or a server stopping.
  reply.more = [stream]() -> std::optional<std::string> {
    constexpr std::chrono::milliseconds slice{100};
    if (stream->queued.empty())
      for (auto& d : stream->server.take_deliveries(stream->number, slice)) stream->queued.push_back(std::move(d));
    std::string events;
    const auto now = Clock::now();
    while (!stream->queued.empty() && (!stream->keep_time || stream->queued.front().due <= now)) {
      const json& message = stream->queued.front().message;
      if (stream->recorder) stream->recorder->message(stream->connection, "out", message, stream->context);
      events += "event: message\ndata: " + json_text(message) + "\n\n";
      stream->queued.pop_front();
    }
    if (events.empty() && !stream->queued.empty())
      std::this_thread::sleep_until(std::min(stream->queued.front().due, now + slice));
    return events;
  };
  return reply;
}

}  // namespace mcp_hints::mock
