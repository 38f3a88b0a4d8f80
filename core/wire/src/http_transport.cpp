// Streamable HTTP (2025-03-26 and later): every message is a POST to one endpoint, answered by a
// JSON body or an SSE stream; server-initiated messages may come on a GET SSE stream. The only
// translation unit that includes cpp-httplib (compiled with Debian's library flags).
#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

std::string excerpt(std::string_view text) { return printable(text, 120); }

// A system message in our style: "connection refused", not "Connection refused".
std::string lower_first(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// Why a TCP connection to an origin ("http://host:port") fails, in the socket's words ("connection
// refused"): httplib names only its error class ("Connection"), so a second, bounded attempt
// asks the kernel. Empty when the address cannot be read or the attempt now succeeds.
std::string connect_failure(const std::string& origin) {
  const auto scheme_end = origin.find("://");
  std::string host = origin.substr(scheme_end + 3), port = origin.compare(0, scheme_end, "https") == 0 ? "443" : "80";
  if (host.starts_with('[')) {  // [v6]:port
    const auto close = host.find(']');
    if (close == std::string::npos) return {};
    if (host.size() > close + 2 && host[close + 1] == ':') port = host.substr(close + 2);
    host = host.substr(1, close - 1);
  } else if (const auto colon = host.rfind(':'); colon != std::string::npos) {
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
    return "cannot resolve '" + printable(host, 80) + "': " + lower_first(::gai_strerror(rc));
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, &::freeaddrinfo);
  const int fd = ::socket(found->ai_family, found->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, found->ai_protocol);
  if (fd < 0) return {};
  int error = 0;
  if (::connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
    error = errno;
    if (error == EINPROGRESS) {
      pollfd wait{fd, POLLOUT, 0};
      socklen_t length = sizeof error;
      error = ::poll(&wait, 1, 2000) == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 ? error
                                                                                                          : ETIMEDOUT;
    }
  }
  ::close(fd);
  if (error == 0) return {};
  return lower_first(std::strerror(error));
}

// What went wrong, in words: httplib names only its error class ("Connection").
std::string failure_text(httplib::Error error, const std::string& origin) {
  switch (error) {
    case httplib::Error::Connection: {
      const std::string reason = connect_failure(origin);
      return reason.empty() ? "could not connect" : reason;
    }
    case httplib::Error::ConnectionTimeout: return "connection timed out";
    case httplib::Error::BindIPAddress: return "could not bind the local address";
    case httplib::Error::Write: return "the connection closed while the request was sent";
    case httplib::Error::Canceled: return "the request was cancelled";
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification: return "TLS failed (" + httplib::to_string(error) + ")";
    case httplib::Error::ExceedRedirectCount: return "too many redirects";
    default: return "the request failed (" + httplib::to_string(error) + ")";
  }
}

// Reads a text/event-stream incrementally: complete events become messages.
class SseReader {
 public:
  explicit SseReader(const TransportLimits& limits) : max_event_(limits.max_message), limits_(limits) {}

  // Feeds bytes; appends complete messages. Throws TransportError for a malformed stream.
  void feed(const char* data, std::size_t n, std::deque<Transport::Received>& out) {
    buffer_.append(data, n);
    for (;;) {
      std::size_t end = buffer_.find("\n\n");
      std::size_t skip = 2;
      if (const auto crlf = buffer_.find("\r\n\r\n"); crlf != std::string::npos && crlf < end) {
        end = crlf;
        skip = 4;
      }
      if (end == std::string::npos) break;
      event(buffer_.substr(0, end), out);
      offset_ += end + skip;
      buffer_.erase(0, end + skip);
    }
    if (buffer_.size() > max_event_)
      throw TransportError("an SSE event longer than " + std::to_string(max_event_) + " bytes (at byte " +
                           std::to_string(offset_) + " of the stream)");
  }

  bool partial() const { return buffer_.find_first_not_of("\r\n") != std::string::npos; }

 private:
  void event(const std::string& text, std::deque<Transport::Received>& out) {
    ++events_;
    std::string data;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto nl = text.find('\n', start);
      std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("data:", 0) == 0) {
        std::string value = line.substr(5);
        if (!value.empty() && value.front() == ' ') value.erase(0, 1);
        data += (data.empty() ? "" : "\n") + value;
      } else if (!line.empty() && line.front() != ':' && line.rfind("event:", 0) != 0 && line.rfind("id:", 0) != 0 &&
                 line.rfind("retry:", 0) != 0) {
        throw TransportError("malformed SSE stream: event " + std::to_string(events_) + " has the line \"" +
                             excerpt(line) + "\" (at byte " + std::to_string(offset_ + start) + ")");
      }
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    if (data.empty()) return;  // a comment or priming event
    try {
      out.push_back(Transport::read_message(data, limits_));
    } catch (const InputError& e) {
      throw TransportError("SSE event " + std::to_string(events_) + " (at byte " + std::to_string(offset_) +
                           ") is not JSON: " + e.what());
    }
  }

  std::size_t max_event_;
  TransportLimits limits_;
  std::string buffer_;
  std::size_t offset_ = 0;
  std::size_t events_ = 0;
};

class HttpTransport : public Transport {
 public:
  HttpTransport(const std::string& url, const TransportLimits& limits, const HttpHeaders& headers)
      : url_(url), limits_(limits), fixed_headers_(headers) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos ||
        (url.compare(0, scheme_end, "http") != 0 && url.compare(0, scheme_end, "https") != 0))
      throw TransportError("not an http(s) URL: " + url);
    const auto path_start = url.find('/', scheme_end + 3);
    origin_ = url.substr(0, path_start);
    path_ = path_start == std::string::npos ? "/" : url.substr(path_start);
    client_ = std::make_unique<httplib::Client>(origin_);
    client_->set_keep_alive(true);
    client_->set_tcp_nodelay(true);  // small messages: no Nagle delay against delayed ACKs
  }

  ~HttpTransport() override { close(); }

  void send(const json& message, Deadline deadline) override {
    httplib::Request req;
    req.method = "POST";
    req.path = path_;
    req.headers = headers();
    req.headers.emplace("Accept", "application/json, text/event-stream");
    req.headers.emplace("Content-Type", "application/json");
    req.body = message.dump(-1, ' ', false, json::error_handler_t::replace);
    if (stateless_) add_routing_headers(message, req.headers);
    for (auto& [name, value] : std::exchange(next_overrides_, {})) {
      req.headers.erase(name);
      if (value) req.headers.emplace(name, *value);
    }
    const bool initialize = message.value("method", json()) == "initialize";
    sent_id_ = message.is_object() && message.contains("method") ? message.value("id", json()) : json();
    exchange(req, deadline, "POST", initialize);
  }

  std::optional<json> receive(Deadline deadline) override {
    while (queue_.empty()) {
      if (Clock::now() >= deadline) return std::nullopt;
      // Nothing pending from our POSTs: listen on the GET stream for what the server starts.
      if (get_unsupported_ || stateless_ || session_id_.empty()) {
        std::this_thread::sleep_until(deadline);
        return std::nullopt;
      }
      httplib::Request req;
      req.method = "GET";
      req.path = path_;
      req.headers = headers();
      req.headers.emplace("Accept", "text/event-stream");
      exchange(req, deadline, "GET", false);
    }
    Received received = std::move(queue_.front());
    queue_.pop_front();
    duplicates_ = std::move(received.duplicates);
    return std::move(received.message);
  }

  void close() override {
    if (closed_) return;
    closed_ = true;
    if (!session_id_.empty() && client_) {
      client_->set_read_timeout(std::chrono::seconds(2));
      client_->set_connection_timeout(std::chrono::seconds(2));
      client_->Delete(path_, headers());  // ending the session is a courtesy: failures are ignored
    }
  }

  std::string target() const override { return url_; }
  void set_protocol_version(const std::string& version) override {
    protocol_version_ = version;
    stateless_ = !version.empty() && is_stateless_revision(version);
  }
  int last_http_status() const override { return last_status_; }
  void override_next_headers(HeaderOverrides overrides) override { next_overrides_ = std::move(overrides); }

 private:
  // SEP-2243 (2026-07-28): the method, and the name or URI a request is about, mirrored in headers
  // so intermediaries can route without reading the body.
  static void add_routing_headers(const json& message, httplib::Headers& headers) {
    if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) return;
    headers.emplace("Mcp-Method", message["method"].get<std::string>());
    const json params = message.value("params", json());
    if (!params.is_object()) return;
    for (const char* key : {"name", "uri"})
      if (params.contains(key) && params[key].is_string()) {
        headers.emplace("Mcp-Name", params[key].get<std::string>());
        return;
      }
  }

  // A refusal whose body is the JSON-RPC error answering the request just sent (the stateless
  // era answers an unsupported version with HTTP 400 and error -32022): queued like any answer.
  bool queue_error_answer(const std::string& content_type, const std::string& body) {
    if (sent_id_.is_null() || content_type.find("application/json") == std::string::npos) return false;
    try {
      Received parsed = read_message(body, limits_);
      if (jsonrpc::classify(parsed.message) != jsonrpc::Kind::error || parsed.message["id"] != sent_id_) return false;
      queue_.push_back(std::move(parsed));
      return true;
    } catch (const InputError&) {
      return false;
    }
  }

  httplib::Headers headers() const {
    httplib::Headers h;
    for (const auto& [name, value] : fixed_headers_) h.emplace(name, value);
    if (!session_id_.empty()) h.emplace("Mcp-Session-Id", session_id_);
    if (!protocol_version_.empty()) h.emplace("MCP-Protocol-Version", protocol_version_);
    return h;
  }

  void exchange(httplib::Request& req, Deadline deadline, const char* verb, bool initialize) {
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
    if (left.count() <= 0) left = std::chrono::microseconds(1000);
    client_->set_connection_timeout(left);
    client_->set_read_timeout(left);
    client_->set_write_timeout(left);
    int status = 0;
    std::string content_type, body;
    bool streaming = false, timed_out = false, got_message = false;
    std::exception_ptr failure;
    SseReader sse(limits_);
    req.response_handler = [&](const httplib::Response& res) {
      status = res.status;
      content_type = res.get_header_value("Content-Type");
      streaming = status == 200 && content_type.find("text/event-stream") != std::string::npos;
      if (initialize && res.has_header("Mcp-Session-Id")) session_id_ = res.get_header_value("Mcp-Session-Id");
      return true;
    };
    const bool is_get = std::string_view(verb) == "GET";
    req.content_receiver = [&](const char* data, std::size_t n, uint64_t, uint64_t) {
      bytes_received_ += n;
      try {
        if (streaming) {
          const auto before = queue_.size();
          sse.feed(data, n, queue_);
          got_message = got_message || queue_.size() > before;
        } else {
          body.append(data, n);
          if (body.size() > limits_.max_message)
            throw TransportError("a response body longer than " + std::to_string(limits_.max_message) + " bytes");
        }
      } catch (...) {
        failure = std::current_exception();
        return false;
      }
      if (Clock::now() >= deadline) {
        timed_out = true;
        return false;
      }
      // A GET stream is only listened to until something arrives.
      return !(is_get && got_message);
    };
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    const bool ok = client_->send(req, res, error);
    if (failure) std::rethrow_exception(failure);
    if (is_get) {
      if (status == 405 || status == 404 || (status != 0 && status != 200)) get_unsupported_ = true;
      return;  // a GET stream ends however it ends; what arrived is queued
    }
    if (!ok && !(got_message && (error == httplib::Error::Canceled || error == httplib::Error::Read))) {
      if (timed_out || error == httplib::Error::Read)
        throw TransportError(
            std::string(verb) + " " + url_ + ": " +
            (status ? "the response stalled (HTTP " + std::to_string(status) + ", no complete message in time)"
                    : "no response in time"));
      throw TransportError(std::string(verb) + " " + url_ + ": " + failure_text(error, origin_));
    }
    last_status_ = status;
    if (status == 202 || status == 204) return;  // a notification or response accepted
    if (status != 200 && queue_error_answer(content_type, body)) return;
    if (status != 200)
      throw TransportError(std::string(verb) + " " + url_ + " answered HTTP " + std::to_string(status) +
                           (body.empty() ? "" : ": " + excerpt(body)));
    if (streaming) {
      if (sse.partial() && !got_message) throw TransportError("the SSE stream ended in the middle of an event");
      return;
    }
    if (content_type.find("application/json") == std::string::npos)
      throw TransportError(std::string(verb) + " " + url_ + " answered with Content-Type \"" + excerpt(content_type) +
                           "\", neither application/json nor text/event-stream");
    Received parsed;
    try {
      parsed = read_message(body, limits_);
    } catch (const InputError& e) {
      throw TransportError("the response body is not JSON: " + std::string(e.what()));
    }
    if (!parsed.message.is_array()) {
      queue_.push_back(std::move(parsed));
      return;
    }
    // A batch: each message with the members it repeats ("/3/result/x" is the fourth's "/result/x").
    const std::size_t first = queue_.size();
    for (auto& m : parsed.message) queue_.push_back({std::move(m), {}});
    for (auto& d : parsed.duplicates) {
      const auto slash = d.pointer.find('/', 1);
      const std::size_t index = std::stoul(d.pointer.substr(1, slash - 1));
      d.pointer = slash == std::string::npos ? std::string() : d.pointer.substr(slash);
      queue_[first + index].duplicates.push_back(std::move(d));
    }
  }

  std::string url_, origin_, path_;
  TransportLimits limits_;
  HttpHeaders fixed_headers_;
  HeaderOverrides next_overrides_;
  std::unique_ptr<httplib::Client> client_;
  std::string session_id_, protocol_version_;
  std::deque<Received> queue_;
  json sent_id_;  // the id of the request last POSTed (null for other messages)
  int last_status_ = 0;
  bool stateless_ = false;
  bool get_unsupported_ = false;
  bool closed_ = false;
};

}  // namespace

struct HttpServer::Impl {
  Handler handler;
  httplib::Server server;
  std::thread thread;
  std::string host, path;
  int port = 0;
  std::atomic<bool> stopping{false};
};

HttpServer::HttpServer(Handler handler) : impl_(std::make_unique<Impl>()) { impl_->handler = std::move(handler); }

HttpServer::~HttpServer() { stop(); }

int HttpServer::listen(const std::string& host, int port, const std::string& path) {
  impl_->host = host;
  impl_->path = path;
  // Each open SSE stream holds a worker thread: keep enough of them.
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(16); };
  impl_->server.set_tcp_nodelay(true);
  auto serve = [this](const httplib::Request& req, httplib::Response& res) {
    HttpRequestView view;
    view.method = req.method;
    view.session_id = req.get_header_value("Mcp-Session-Id");
    view.protocol_version = req.get_header_value("MCP-Protocol-Version");
    view.origin = req.get_header_value("Origin");
    view.authorization = req.get_header_value("Authorization");
    view.mcp_method = req.get_header_value("Mcp-Method");
    view.mcp_name = req.get_header_value("Mcp-Name");
    view.has_mcp_method = req.has_header("Mcp-Method");
    view.has_mcp_name = req.has_header("Mcp-Name");
    view.has_protocol_version = req.has_header("MCP-Protocol-Version");
    view.body = req.body;
    HttpReply reply = impl_->handler(view);
    res.status = reply.status;
    for (const auto& [k, v] : reply.headers) res.set_header(k, v);
    if (reply.stall_after_headers) {
      Impl* impl = impl_.get();
      res.set_chunked_content_provider(reply.content_type, [impl](std::size_t, httplib::DataSink&) {
        while (!impl->stopping) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return false;
      });
      return;
    }
    if (!reply.body.empty() || reply.status == 200) res.set_content(reply.body, reply.content_type);
  };
  impl_->server.Post(path, serve);
  impl_->server.Get(path, serve);
  impl_->server.Delete(path, serve);
  impl_->port = port == 0 ? impl_->server.bind_to_any_port(host) : (impl_->server.bind_to_port(host, port) ? port : -1);
  if (impl_->port <= 0) throw TransportError("cannot listen on " + host + ":" + std::to_string(port));
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  return impl_->port;
}

std::string HttpServer::url() const {
  return "http://" + impl_->host + ":" + std::to_string(impl_->port) + impl_->path;
}

void HttpServer::stop() {
  if (!impl_) return;
  impl_->stopping = true;
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::unique_ptr<Transport> make_http_transport(const std::string& url, const TransportLimits& limits,
                                               const HttpHeaders& headers) {
  return std::make_unique<HttpTransport>(url, limits, headers);
}

}  // namespace mcp_hints
