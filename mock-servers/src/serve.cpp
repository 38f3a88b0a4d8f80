// The stdio and Streamable HTTP fronts of the mock server. Event-driven: a delayed answer waits
// in a queue (or its HTTP request), and a cancellation removes it; nothing sleeps blindly.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <set>
#include <thread>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;

namespace {

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string dump(const json& m) { return m.dump(-1, ' ', false, json::error_handler_t::replace); }

struct Pending {
  Clock::time_point due;
  Outgoing out;
};

}  // namespace

int serve_stdio(MockServer& server, const ServeOptions& options) {
  ::signal(SIGPIPE, SIG_IGN);
  // One name per process, so the record tells a client's sessions (one process each) apart.
  const std::string connection = "stdio:" + std::to_string(::getpid());
  Recorder* rec = options.recorder;
  if (rec) rec->event(connection, "open");
  // Over stdio a credential comes from the environment: one process serves one context.
  const char* credential = std::getenv(kAuthorizationEnv);
  const std::string context = server.authorization_context(credential ? credential : "");
  if (server.requires_authorization() && context.empty()) {
    const std::string why = std::string(credential ? "the credential in " : "no credential in ") + kAuthorizationEnv +
                            (credential ? " is none of the scenario's authorization contexts" : " (Bearer TOKEN)");
    std::cerr << "mcp-hints mock: " << why << "\n";
    if (rec) rec->event(connection, "close (unauthorized: " + why + ")");
    return 1;
  }
  std::vector<Pending> pending;  // in the order they were produced
  std::string buffer;
  char chunk[65536];
  auto finish = [&](const char* why, int code) {
    if (rec) rec->event(connection, why);
    return code;
  };
  for (;;) {
    // Send what is due, in order.
    const auto now = Clock::now();
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->due > now) {
        ++it;
        continue;
      }
      if (it->out.close) return finish("close (scripted)", 0);
      if (rec && !it->out.note.empty()) rec->event(connection, it->out.note);
      if (!it->out.message.is_null()) {
        if (rec) rec->message(connection, "out", it->out.message, context);
        if (!write_all(STDOUT_FILENO, dump(it->out.message) + "\n")) return finish("close (client gone)", 0);
      }
      it = pending.erase(it);
    }
    int timeout = -1;
    for (const auto& p : pending) {
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(p.due - Clock::now()).count() + 1;
      const int wait = static_cast<int>(std::clamp<long long>(ms, 0, std::numeric_limits<int>::max()));
      timeout = timeout < 0 ? wait : std::min(timeout, wait);
    }
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, timeout) <= 0) continue;
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return finish("close (stdin closed)", 0);
    buffer.append(chunk, static_cast<std::size_t>(n));
    auto too_long = [&](std::string_view line) {
      const json error =
          jsonrpc::error(nullptr, jsonrpc::invalid_request,
                         "Invalid Request: a line longer than " + std::to_string(options.max_message) + " bytes");
      if (rec) {
        rec->raw(connection, line.substr(0, 1024));
        rec->message(connection, "out", error);
      }
      write_all(STDOUT_FILENO, dump(error) + "\n");
      return finish("close (line too long)", 1);
    };
    std::size_t newline;
    while ((newline = buffer.find('\n')) != std::string::npos) {
      std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      if (line.size() > options.max_message) return too_long(line);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      json parsed;
      auto outs = server.handle_text(line, &parsed, context);
      if (rec) {
        if (parsed.is_null())
          rec->raw(connection, line);
        else
          rec->message(connection, "in", parsed, context);
      }
      if (auto cancelled = MockServer::cancelled_request(parsed)) {
        std::erase_if(pending, [&](const Pending& p) { return p.out.answers == *cancelled; });
      }
      for (auto& out : outs) pending.push_back({Clock::now() + out.delay, std::move(out)});
    }
    if (buffer.size() > options.max_message) return too_long(buffer);
  }
}

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

class HttpSessions {
 public:
  std::string open() {
    std::lock_guard lock(mutex_);
    std::string id;
    static const char* hex = "0123456789abcdef";
    for (int i = 0; i < 32; ++i) id += hex[rng_() % 16];
    open_.insert(id);
    return id;
  }
  bool is_open(const std::string& id) {
    std::lock_guard lock(mutex_);
    return open_.count(id) > 0;
  }
  void close(const std::string& id) {
    std::lock_guard lock(mutex_);
    open_.erase(id);
  }
  void cancel(const json& request) {
    std::lock_guard lock(mutex_);
    cancelled_.insert(request.dump());
  }
  bool cancelled(const json& request) {
    std::lock_guard lock(mutex_);
    return cancelled_.count(request.dump()) > 0;
  }

 private:
  std::mutex mutex_;
  std::set<std::string> open_, cancelled_;
  std::mt19937_64 rng_{std::random_device{}()};
};

// Whether a request speaks the stateless era: it carries a protocol version in its _meta.
bool is_stateless_request(const json& message) {
  return jsonrpc::classify(message) == jsonrpc::Kind::request && message.contains("params") &&
         names_protocol_version(message["params"]);
}

// What is wrong with a stateless request's mirrored headers; empty when nothing is.
std::string header_mismatch(const HttpRequestView& req, const json& message) {
  auto differs = [](bool sent, const std::string& header, const std::string& name, const std::string& body) {
    if (!sent) return name + " header missing (the body says \"" + body + "\")";
    if (header != body) return name + " header \"" + header + "\" does not match the body's \"" + body + "\"";
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
    return differs(req.has_mcp_name, req.mcp_name, "Mcp-Name", params[key].get<std::string>());
  return {};
}

// A header's media type, lower case, without parameters ("application/json; charset=utf-8").
std::string media_type(std::string_view value) {
  value = value.substr(0, value.find(';'));
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  std::string type(value);
  for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type;
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

int serve_http(MockServer& server, const ServeOptions& options) {
  // The signals that end the server are taken by sigwait below, not by the serving threads.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  Recorder* rec = options.recorder;
  HttpSessions sessions;
  HttpServerLimits limits = options.http;
  limits.max_body = options.max_message;
  HttpServer http(
      [&](const HttpRequestView& req) -> HttpReply {
        if (!allowed_origin(req.origin))
          return text_reply(403, "Forbidden: Origin " + req.origin + " is not a loopback origin");
        const std::string connection = "http:" + (req.session_id.empty() ? std::string("-") : req.session_id);
        if (req.method == "DELETE") {
          if (!sessions.is_open(req.session_id)) return text_reply(404, "Not Found: unknown session");
          sessions.close(req.session_id);
          if (rec) rec->event(connection, "session-end");
          HttpReply reply;
          reply.status = 204;
          return reply;
        }
        if (req.method == "GET")
          return text_reply(405, "Method Not Allowed: this server sends notifications on POST streams");
        // A POST carries one JSON-RPC message and accepts both answer forms (the body's size is the
        // HTTP front's to bound, while it reads).
        if (!accepts_both(req)) {
          HttpReply reply =
              text_reply(406, "Not Acceptable: the Accept header must list application/json and text/event-stream");
          if (rec) rec->event(connection, "refused: HTTP 406 " + reply.body);
          return reply;
        }
        if (media_type(req.content_type) != "application/json") {
          HttpReply reply = text_reply(415, "Unsupported Media Type: the Content-Type must be application/json");
          if (rec) rec->event(connection, "refused: HTTP 415 " + reply.body);
          return reply;
        }
        json parsed;
        try {
          parsed = parse_json_document(req.body).value;
        } catch (const InputError&) {
          parsed = json();  // handle_text below answers with the parse error
        }
        const bool initialize = parsed.is_object() && parsed.value("method", json()) == "initialize";
        const std::string context = server.authorization_context(req.authorization);
        std::string session = req.session_id;
        // A request refused at the HTTP level is recorded with why, and never reaches the engine: it
        // must not use up a scripted step.
        auto record_refusal = [&](const std::string& conn, int status, const std::string& why) {
          if (rec) {
            rec->message(conn, "in", parsed, context);
            rec->event(conn, "refused: HTTP " + std::to_string(status) + " " + why);
          }
        };
        auto refuse = [&](int status, const std::string& why) {
          record_refusal(connection, status, why);
          return text_reply(status, why);
        };
        // A scenario with authorization contexts wants one of them on every message (RFC 6750).
        if (server.requires_authorization() && context.empty()) {
          const std::string why =
              req.authorization.empty()
                  ? "Unauthorized: no Authorization header (Bearer TOKEN)"
                  : "Unauthorized: the bearer token is none of the scenario's authorization contexts";
          record_refusal(is_stateless_request(parsed) ? std::string(kStatelessHttpConnection) : connection, 401, why);
          HttpReply reply = text_reply(401, why);
          reply.headers.emplace_back("WWW-Authenticate", "Bearer");
          return reply;
        }
        // A request that names a stateless revision, and any sessionless one but initialize to a server
        // that speaks that era (the engine then says what is missing), have no session to check.
        const bool stateless =
            is_stateless_request(parsed) || (server.speaks_stateless() && req.session_id.empty() && !initialize &&
                                             jsonrpc::classify(parsed) == jsonrpc::Kind::request);
        if (stateless) {
          // The stateless era: no session; the headers mirror the body, for intermediaries (SEP-2243).
          if (const std::string mismatch = is_stateless_request(parsed) ? header_mismatch(req, parsed) : std::string();
              !mismatch.empty()) {
            record_refusal(std::string(kStatelessHttpConnection), 400, mismatch);
            HttpReply reply;
            reply.status = 400;
            reply.body = dump(jsonrpc::error(parsed["id"], header_mismatch_code, "Header mismatch: " + mismatch));
            return reply;
          }
          session.clear();
        } else if (initialize) {
          session = sessions.open();
        } else if (!parsed.is_null()) {
          if (session.empty()) return refuse(400, "Bad Request: Mcp-Session-Id missing");
          if (!sessions.is_open(session)) return refuse(404, "Not Found: unknown session");
        }
        const std::string conn = stateless ? std::string(kStatelessHttpConnection)
                                           : "http:" + (session.empty() ? std::string("-") : session);
        if (rec) {
          if (parsed.is_null())
            rec->raw(conn, req.body);
          else
            rec->message(conn, "in", parsed, context);
        }
        auto outs = parsed.is_null() ? server.handle_text(req.body, nullptr, context) : server.handle(parsed, context);
        if (auto cancelled = MockServer::cancelled_request(parsed)) sessions.cancel(*cancelled);
        HttpReply reply;
        // A refused initialize opens no session.
        const bool refused = outs.size() == 1 && outs.front().http_status >= 400;
        if (initialize && refused) sessions.close(session);
        if (initialize && !refused) reply.headers.emplace_back("Mcp-Session-Id", session);
        std::vector<json> send;
        // A session deleted while this request waits (a DELETE racing it) takes its answers with it.
        auto session_gone = [&] { return !stateless && !initialize && !session.empty() && !sessions.is_open(session); };
        for (const auto& out : outs) {
          // A delayed answer waits here, in its own request, unless the client cancels it.
          const auto due = Clock::now() + out.delay;
          while (Clock::now() < due && !(!out.answers.is_null() && sessions.cancelled(out.answers)) && !session_gone())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          if (session_gone()) {
            if (rec) rec->event(conn, "refused: HTTP 404 Not Found: the session was deleted while the answer waited");
            return text_reply(404, "Not Found: the session was deleted while the answer waited");
          }
          if (!out.answers.is_null() && sessions.cancelled(out.answers)) continue;
          if (out.close) {
            sessions.close(session);
            if (rec) rec->event(conn, "session-end (scripted close)");
            return text_reply(404, "Not Found: the session was closed");
          }
          if (rec && !out.note.empty()) rec->event(conn, out.note);
          if (!out.message.is_null()) {
            if (rec) rec->message(conn, "out", out.message, context);
            send.push_back(out.message);
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
          if (jsonrpc::classify(send.front()) == jsonrpc::Kind::error && send.front()["id"].is_null())
            reply.status = 400;
          reply.body = dump(send.front());
          return reply;
        }
        reply.content_type = "text/event-stream";
        for (const auto& m : send) reply.body += "event: message\ndata: " + dump(m) + "\n\n";
        return reply;
      },
      limits);
  try {
    http.listen(options.host, options.port);
  } catch (const std::exception& e) {
    std::cerr << "mcp-hints mock: " << e.what() << "\n";
    return 2;
  }
  std::cout << http.url() << std::endl;
  int signal_number = 0;
  sigwait(&stop, &signal_number);
  http.stop();
  return 0;
}

}  // namespace mcp_hints::mock
