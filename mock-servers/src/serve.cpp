// The stdio and Streamable HTTP fronts of the mock server. Event-driven: a delayed answer waits
// in a queue (stdio) or in its HTTP request (http_endpoint.cpp), and a cancellation removes it.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <utility>

#include "http_front.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/mock/http_endpoint.hpp"
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
  std::vector<Pending> pending;                               // in the order they were produced
  std::vector<std::pair<std::uint64_t, json>> subscriptions;  // open, with the id of the request that opened each
  std::string agreed;  // the revision initialize agreed on (one process, one session)
  std::string buffer, line_out;
  MessageReader requests = MockServer::request_reader();  // the next message is built into the last
  const json& parsed = requests.message();
  char chunk[65536];
  auto finish = [&](std::string_view why, int code) {
    if (rec) rec->event(connection, why);
    return code;
  };
  for (;;) {
    // Send what is due, in order.
    // (Those not due move up in one pass: many answers pending at once are not moved each time
    // one before them goes.)
    const auto now = Clock::now();
    std::size_t waiting = 0;
    for (auto& p : pending) {
      if (p.due > now) {
        if (&p != &pending[waiting]) pending[waiting] = std::move(p);
        ++waiting;
        continue;
      }
      if (p.out.close) return finish(kScriptedCloseEvent, 0);
      if (rec && !p.out.note.empty()) rec->event(connection, p.out.note);
      if (p.out.sends()) {
        // Read as it stands (const): a scripted result is still sent from its text.
        if (rec) rec->batch(connection, "out", std::as_const(p.out).message(), context);
        line_out.clear();  // one buffer for every line sent: its room is kept
        p.out.append_text(line_out);
        line_out += '\n';
        if (!write_all(STDOUT_FILENO, line_out)) return finish("close (client gone)", 0);
      }
    }
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(waiting), pending.end());
    int timeout = -1;
    for (const auto& p : pending) {
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(p.due - Clock::now()).count() + 1;
      const int wait = static_cast<int>(std::clamp<long long>(ms, 0, std::numeric_limits<int>::max()));
      timeout = timeout < 0 ? wait : std::min(timeout, wait);
    }
    // With nothing scripted to send later, the read itself waits: one system call a message less.
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (timeout >= 0 && ::poll(&in, 1, timeout) <= 0) continue;
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EAGAIN) {  // a non-blocking stdin (its writer's choice): wait for it here
      ::poll(&in, 1, timeout);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
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
      write_all(STDOUT_FILENO, json_text(error) + "\n");
      return finish("close (line too long)", 1);
    };
    // The lines read are taken where they stand, and cut from the buffer once a read: a client
    // that sends many at once is not answered in time that grows with their square.
    std::size_t start = 0, newline;
    for (; (newline = buffer.find('\n', start)) != std::string::npos; start = newline + 1) {
      std::string_view line(buffer.data() + start, newline - start);
      if (line.size() > options.max_message) return too_long(line);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      const bool batches = MockServer::takes_batches(agreed);
      auto outs = server.handle_text(line, &requests, context, batches);
      if (const std::string version = MockServer::agreed_version(parsed, outs); !version.empty()) agreed = version;
      if (rec) {
        if (parsed.is_null())
          rec->raw(connection, line);
        else if (batches)
          rec->batch(connection, "in", parsed, context);
        else
          rec->message(connection, "in", parsed, context);
      }
      if (auto cancelled = MockServer::cancelled_request(parsed)) {
        std::erase_if(pending, [&](const Pending& p) { return p.out.answers == *cancelled; });
        // A subscription ends when its request is cancelled: stdio has no stream of its own to close.
        if (auto open = std::find_if(subscriptions.begin(), subscriptions.end(),
                                     [&](const auto& s) { return s.second == *cancelled; });
            open != subscriptions.end()) {
          server.end_subscription(open->first);
          if (rec) rec->event(connection, "subscription " + cancelled->dump() + " ended (cancelled by the client)");
          subscriptions.erase(open);
        }
      }
      // What the message delivered on the subscriptions (all of them this client's: one process
      // serves one client), sent when due and, like an answer, dropped once its request is cancelled;
      // queued before the answers, so that a tools/list_changed goes out before the call's result.
      for (const auto& [number, request] : subscriptions)
        for (auto& delivery : server.take_deliveries(number))
          pending.push_back({delivery.due, Outgoing{std::move(delivery.message), {}, false, request}});
      for (auto& out : outs) {
        if (out.subscription) subscriptions.emplace_back(out.subscription, out.answers);
        pending.push_back({Clock::now() + out.delay, std::move(out)});
      }
    }
    buffer.erase(0, start);
    if (buffer.size() > options.max_message) return too_long(buffer);
  }
}

int serve_until_signal(const HttpServer::Handler& handler, const std::string& host, int port, const std::string& path,
                       const HttpServerLimits& limits, const std::string& who) {
  // The signals that end the server are taken by sigwait below, not by the serving threads.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  HttpServer http(handler, limits);
  try {
    http.listen(host, port, path);
  } catch (const std::exception& e) {
    std::cerr << who << ": " << e.what() << "\n";
    return 2;
  }
  std::cout << http.url() << std::endl;
  int signal_number = 0;
  sigwait(&stop, &signal_number);
  http.stop();
  return 0;
}

int serve_http(MockServer& server, const ServeOptions& options) {
  HttpServerLimits limits = options.http;
  limits.max_body = options.max_message;
  HttpEndpoint endpoint(server, options.recorder);
  return serve_until_signal([&endpoint](const HttpRequestView& req) { return endpoint.handle(req); }, options.host,
                            options.port, "/mcp", limits, "mcp-hints mock");
}

}  // namespace mcp_hints::mock
