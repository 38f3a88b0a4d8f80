// Streamable HTTP (2025-03-26 and later): every message is a POST to one endpoint, answered by a
// JSON body or an SSE stream; server-initiated messages may come on a GET SSE stream. The only
// translation unit that includes cpp-httplib (compiled with Debian's library flags), and the whole
// of the HTTP module, mcp-hints-http.so, loaded at first use (http_module.hpp).
#include <fcntl.h>
#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "http_module.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// What the module uses of the library, handed to it as it was loaded (http_module.hpp).
const http_module::Imports* imports = nullptr;
const http_module::Imports& imported() { return *imports; }

std::string excerpt(std::string_view text) { return imported().printable(text, 120); }

// A system message in our style: "connection refused", not "Connection refused".
std::string lower_first(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// An origin ("http://host:port", "https://[v6]") in parts; nullopt when it cannot be read.
struct Origin {
  bool tls = false;
  std::string host, port;
};
std::optional<Origin> parse_origin(const std::string& origin) {
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) return std::nullopt;
  Origin parts;
  parts.tls = origin.compare(0, scheme_end, "https") == 0;
  parts.port = parts.tls ? "443" : "80";
  parts.host = origin.substr(scheme_end + 3);
  if (parts.host.starts_with('[')) {  // [v6]:port
    const auto close = parts.host.find(']');
    if (close == std::string::npos) return std::nullopt;
    if (parts.host.size() > close + 2 && parts.host[close + 1] == ':') parts.port = parts.host.substr(close + 2);
    parts.host = parts.host.substr(1, close - 1);
  } else if (const auto colon = parts.host.rfind(':'); colon != std::string::npos) {
    parts.port = parts.host.substr(colon + 1);
    parts.host.resize(colon);
  }
  return parts;
}

// Why a TCP connection to an origin ("http://host:port") fails, in the socket's words ("connection
// refused"): httplib names only its error class ("Connection"), so a second, bounded attempt
// asks the kernel. Empty when the address cannot be read or the attempt now succeeds.
std::string connect_failure(const std::string& origin) {
  const auto parts = parse_origin(origin);
  if (!parts) return {};
  const auto& [tls, host, port] = *parts;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
    return "cannot resolve '" + imported().printable(host, 80) + "': " + lower_first(::gai_strerror(rc));
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

  // What the stream set for a reconnection (HTML, "Interpreting an event stream"): the last event
  // ID, kept across events until an `id` field changes it ("" when none or cleared), and the
  // reconnection time of the last `retry` field made only of digits.
  const std::string& last_event_id() const { return last_event_id_; }
  std::optional<std::chrono::milliseconds> retry() const { return retry_; }

 private:
  static std::string field_value(const std::string& line, std::size_t name_length) {
    std::string value = line.substr(name_length);
    if (!value.empty() && value.front() == ' ') value.erase(0, 1);
    return value;
  }

  void set_reconnection_fields(const std::string& line) {
    if (line.rfind("id:", 0) == 0) {
      std::string value = field_value(line, 3);
      if (value.find('\0') == std::string::npos) last_id_buffer_ = std::move(value);
    } else if (line.rfind("retry:", 0) == 0) {
      const std::string value = field_value(line, 6);
      long long ms = 0;
      const bool digits =
          !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (digits && std::from_chars(value.data(), value.data() + value.size(), ms).ec == std::errc())
        retry_ = std::chrono::milliseconds(ms);  // beyond long long: ignored, as a value not all digits
    }
  }

  void event(const std::string& text, std::deque<Transport::Received>& out) {
    ++events_;
    std::string data;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto nl = text.find('\n', start);
      std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("data:", 0) == 0) {
        data += (data.empty() ? "" : "\n") + field_value(line, 5);
      } else if (line.rfind("id:", 0) == 0 || line.rfind("retry:", 0) == 0) {
        set_reconnection_fields(line);
      } else if (!line.empty() && line.front() != ':' && line.rfind("event:", 0) != 0) {
        throw TransportError("malformed SSE stream: event " + std::to_string(events_) + " has the line \"" +
                             excerpt(line) + "\" (at byte " + std::to_string(offset_ + start) + ")");
      }
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    last_event_id_ = last_id_buffer_;  // set as the event is dispatched, even one without data
    if (data.empty()) return;          // a comment or priming event
    try {
      out.push_back(imported().read_message(data, limits_));
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
  std::string last_id_buffer_, last_event_id_;
  std::optional<std::chrono::milliseconds> retry_;
};

// Waits until a socket is ready for events, or the time is up (false).
bool wait_ready(int fd, short events, std::chrono::microseconds timeout) {
  const auto until = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, INT32_MAX)));
    if (rc > 0) return true;
    if (rc < 0 && errno != EINTR) return false;
  }
}

// The client's side of a plain (http://) connection. httplib's own stream polls before every read
// and every write, and sends a request's headers and its body apart (two wake-ups of the server);
// this one keeps what is written until the first read and sends it at once, and polls only when a
// read or a send would have to wait.
class ClientStream : public httplib::Stream {
 public:
  ClientStream(int fd, std::chrono::microseconds read_timeout, std::chrono::microseconds write_timeout)
      : fd_(fd), read_timeout_(read_timeout), write_timeout_(write_timeout) {}
  ~ClientStream() override { flush(); }

  bool is_readable() const override { return off_ < len_ || wait_ready(fd_, POLLIN, read_timeout_); }
  bool is_writable() const override { return wait_ready(fd_, POLLOUT, write_timeout_); }

  ssize_t read(char* ptr, std::size_t size) override {
    if (!flush()) return -1;
    if (off_ == len_) {
      ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!wait_ready(fd_, POLLIN, read_timeout_)) return -1;
        n = ::recv(fd_, buffer_, sizeof buffer_, 0);
      }
      if (n <= 0) return n;
      off_ = 0;
      len_ = static_cast<std::size_t>(n);
    }
    const std::size_t take = std::min(size, len_ - off_);
    std::memcpy(ptr, buffer_ + off_, take);
    off_ += take;
    return static_cast<ssize_t>(take);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    if (failed_) return -1;
    if (pending_.size() + size > kept_bytes && !flush()) return -1;
    if (size > kept_bytes) return send_all(ptr, size) ? static_cast<ssize_t>(size) : -1;
    pending_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { ip.clear(), port = 0; }
  void get_local_ip_and_port(std::string& ip, int& port) const override { ip.clear(), port = 0; }
  ::socket_t socket() const override { return fd_; }

 private:
  bool flush() {
    if (!failed_ && !pending_.empty()) failed_ = !send_all(pending_.data(), pending_.size());
    pending_.clear();
    return !failed_;
  }
  bool send_all(const char* data, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        if (!wait_ready(fd_, POLLOUT, write_timeout_)) return false;
        continue;
      }
      if (n <= 0) return false;
      data += n;
      size -= static_cast<std::size_t>(n);
    }
    return true;
  }

  static constexpr std::size_t kept_bytes = 64 * 1024;
  int fd_;
  std::chrono::microseconds read_timeout_, write_timeout_;
  std::string pending_;
  bool failed_ = false;
  char buffer_[16 * 1024];
  std::size_t off_ = 0, len_ = 0;
};

// httplib's client of a plain connection, over a ClientStream.
class PlainClient : public httplib::ClientImpl {
 public:
  using ClientImpl::ClientImpl;

 private:
  bool process_socket(const Socket& socket, std::function<bool(httplib::Stream&)> callback) override {
    using std::chrono::microseconds, std::chrono::seconds;
    ClientStream stream(socket.sock, seconds(read_timeout_sec_) + microseconds(read_timeout_usec_),
                        seconds(write_timeout_sec_) + microseconds(write_timeout_usec_));
    return callback(stream);
  }
};

// The client for an origin: TLS through httplib's own, plain through PlainClient.
std::unique_ptr<httplib::ClientImpl> make_client(const std::string& origin) {
  const auto parts = parse_origin(origin);
  int port = 0;
  if (!parts || std::from_chars(parts->port.data(), parts->port.data() + parts->port.size(), port).ptr !=
                    parts->port.data() + parts->port.size())
    throw TransportError("not an http(s) URL: " + origin);
  if (parts->tls) return std::make_unique<httplib::SSLClient>(parts->host, port);
  return std::make_unique<PlainClient>(parts->host, port);
}

// A descriptor of our own for the socket httplib makes for a client (before it connects). Another
// thread shutting it down ends a read blocked on it, and it names the same socket whatever httplib
// has closed meanwhile: no other connection can take the number over while we hold it. httplib's
// own ClientImpl::stop is not called from another thread: it locks inside the library, and its
// unlock is a tail call out of it, which ThreadSanitizer (ignoring calls from the library,
// tests/tsan.supp) takes for the unlock of a mutex never locked.
class SocketCopy {
 public:
  explicit SocketCopy(httplib::ClientImpl& client) {
    client.set_socket_options([this](socket_t sock) {
      std::lock_guard lock(m_);
      if (fd_ >= 0) ::close(fd_);
      fd_ = ::fcntl(sock, F_DUPFD_CLOEXEC, 0);
      // No descriptor left to copy it (the process is out of them): a socket that no one could end
      // is ended now, and its request fails at once with a transport error rather than hanging.
      if (fd_ < 0) ::shutdown(sock, SHUT_RDWR);
    });
  }
  SocketCopy(const SocketCopy&) = delete;
  SocketCopy& operator=(const SocketCopy&) = delete;
  ~SocketCopy() { release(); }

  // Ends what the socket carries; nothing before httplib has made the socket: see stop_reader.
  void shut_down() {
    std::lock_guard lock(m_);
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
  }
  void release() {
    std::lock_guard lock(m_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  std::mutex m_;
  int fd_ = -1;
};

// Ends `reader`, a thread reading a client's stream through the socket `copy` names, and waits for
// it to finish: the socket is shut down again and again, in case httplib had not yet made it (the
// reader still resolving the name) when asked.
void stop_reader(std::atomic<bool>& stop, const std::atomic<bool>& finished, SocketCopy& copy, std::thread& reader) {
  stop = true;
  while (!finished) {
    copy.shut_down();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  reader.join();
}

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
    client_ = make_client(origin_);
    client_->set_keep_alive(true);
    client_->set_tcp_nodelay(true);  // small messages: no Nagle delay against delayed ACKs
  }

  ~HttpTransport() override { close(); }

  void send(const json& message, Deadline deadline) override {
    httplib::Request req = post_request(message);
    for (auto& [name, value] : std::exchange(next_overrides_, {})) {
      req.headers.erase(name);
      if (value) req.headers.emplace(name, *value);
    }
    const bool initialize = message.value("method", json()) == "initialize";
    sent_id_ = message.is_object() && message.contains("method") ? message.value("id", json()) : json();
    const StreamEnd end = exchange(req, deadline, initialize ? Purpose::initialize : Purpose::post, sent_id_);
    if (end.unanswered() && !stateless_ && !end.last_event_id.empty())
      resumptions_.push_back({end.last_event_id, sent_id_, Clock::now() + reconnection_time_});
  }

  std::optional<json> receive(Deadline deadline) override {
    while (queue_.empty()) {
      if (Clock::now() >= deadline) return std::nullopt;
      if (!resumptions_.empty()) {
        resume(deadline);
        continue;
      }
      // Nothing pending from our POSTs: listen on the GET stream for what the server starts.
      if (get_unsupported_ || stateless_ || session_id_.empty()) {
        std::this_thread::sleep_until(deadline);
        return std::nullopt;
      }
      httplib::Request req = get_request();
      exchange(req, deadline, Purpose::listen, json());
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
    stateless_ = !version.empty() && imported().is_stateless_revision(version);
  }
  int last_http_status() const override { return last_status_; }
  bool stream_per_request() const override { return true; }
  void override_next_headers(HeaderOverrides overrides) override { next_overrides_ = std::move(overrides); }
  void set_server_request_answerer(ServerRequestAnswerer answerer) override { answerer_ = std::move(answerer); }
  void listen_during_requests(bool on) override { listen_during_requests_ = on; }
  std::unique_ptr<HeldStream> hold_stream(const json& request, Deliver deliver) override {
    return std::make_unique<HeldPost>(*this, request, std::move(deliver));
  }

 private:
  // The POST that sends `message`, with the headers every request of the session carries.
  httplib::Request post_request(const json& message) const {
    httplib::Request req;
    req.method = "POST";
    req.path = path_;
    req.headers = headers();
    req.headers.emplace("Accept", "application/json, text/event-stream");
    req.headers.emplace("Content-Type", "application/json");
    req.body = imported().json_text(message, -1);
    if (stateless_) add_routing_headers(message, req.headers);
    return req;
  }

  // A request's POST held open on a connection and thread of its own (hold_stream): each message of
  // its SSE stream is delivered as it comes; a JSON answer instead (a refusal) is delivered whole.
  class HeldPost : public HeldStream {
   public:
    HeldPost(const HttpTransport& t, const json& request, Deliver deliver)
        : req_(t.post_request(request)),
          limits_(t.limits_),
          origin_(t.origin_),
          url_(t.url_),
          client_(make_client(t.origin_)),
          socket_(*client_),
          deliver_(std::move(deliver)) {
      client_->set_connection_timeout(std::chrono::seconds(10));
      client_->set_write_timeout(std::chrono::seconds(10));
      client_->set_read_timeout(std::chrono::hours(24));  // held until let go: our stop ends the read
      thread_ = std::thread([this] { read(); });
    }
    ~HeldPost() override { stop_reader(stop_, finished_, socket_, thread_); }
    bool ended() const override { return finished_ && !stop_; }
    std::string why_ended() const override {
      std::lock_guard lock(why_mutex_);
      return why_;
    }

   private:
    void read() {
      SseReader sse(limits_);
      int status = 0;
      bool streaming = false;
      std::string body;
      std::string why;
      req_.response_handler = [&](const httplib::Response& res) {
        status = res.status;
        streaming = status == 200 && res.get_header_value("Content-Type").find("text/event-stream") == 0;
        return true;
      };
      req_.content_receiver = [&](const char* data, std::size_t n, uint64_t, uint64_t) {
        try {
          if (!streaming) {
            body.append(data, n);
            if (body.size() > limits_.max_message) throw TransportError("an answer longer than the message limit");
            return !stop_.load();
          }
          std::deque<Received> got;
          sse.feed(data, n, got);
          for (auto& received : got)
            if (!deliver_(std::move(received.message))) {
              why = "the holder took no more (it had too many messages unread)";
              return false;
            }
        } catch (const std::exception& e) {
          why = e.what();
          return false;
        }
        return !stop_.load();
      };
      httplib::Response res;
      httplib::Error error = httplib::Error::Success;
      if (!stop_) client_->send(req_, res, error);  // ends as the server or our stop ends it
      socket_.release();
      if (why.empty() && !streaming && !body.empty()) try {
          deliver_(imported().read_message(body, limits_).message);  // the last: whether it takes more is moot
        } catch (const InputError& e) {
          why = "the answer is not JSON: " + std::string(e.what());
        }
      if (why.empty())
        why = status == 0     ? "POST " + url_ + ": " + failure_text(error, origin_)
              : streaming     ? "the server closed the stream"
              : status >= 400 ? "the server refused it: HTTP " + std::to_string(status)
                              : "the server answered HTTP " + std::to_string(status) + " without a stream";
      {
        std::lock_guard lock(why_mutex_);
        why_ = std::move(why);
      }
      finished_ = true;
    }

    httplib::Request req_;
    TransportLimits limits_;
    std::string origin_, url_;
    std::unique_ptr<httplib::ClientImpl> client_;
    SocketCopy socket_;  // while the POST is under way
    Deliver deliver_;
    std::thread thread_;
    std::atomic<bool> stop_{false}, finished_{false};
    mutable std::mutex why_mutex_;
    std::string why_;
  };

  // SEP-2243 (2026-07-28): the method, and the name or URI a request is about, mirrored in headers
  // so intermediaries can route without reading the body; a name that "cannot be safely represented
  // as a plain ASCII header value" goes in the Base64 sentinel form.
  static void add_routing_headers(const json& message, httplib::Headers& headers) {
    if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) return;
    headers.emplace("Mcp-Method", message["method"].get<std::string>());
    const json params = message.value("params", json());
    if (!params.is_object()) return;
    for (const char* key : {"name", "uri"})
      if (params.contains(key) && params[key].is_string()) {
        headers.emplace("Mcp-Name", imported().header_value(params[key].get<std::string>()));
        return;
      }
  }

  // A refusal whose body is the JSON-RPC error answering the request just sent (the stateless
  // era answers an unsupported version with HTTP 400 and error -32022): queued like any answer.
  bool queue_error_answer(const std::string& content_type, const std::string& body) {
    if (sent_id_.is_null() || content_type.find("application/json") == std::string::npos) return false;
    try {
      Received parsed = imported().read_message(body, limits_);
      if (imported().classify(parsed.message) != jsonrpc::Kind::error || parsed.message["id"] != sent_id_) return false;
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

  // The server's requests queued from `from` on, answered at once on a connection of their own:
  // the stream they came on waits for the answers (ServerRequestAnswerer).
  void answer_server_requests(std::size_t from) {
    if (!answerer_) return;
    for (std::size_t i = from; i < queue_.size();) {
      if (imported().classify(queue_[i].message) != jsonrpc::Kind::request) {
        ++i;
        continue;
      }
      const json request = std::move(queue_[i].message);
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
      answer_now(request);
    }
  }

  // Answers one request of the server's at once, on the connection kept for answers. The listener
  // and the reading of a POST's stream may both answer: one at a time.
  void answer_now(const json& request) {
    std::lock_guard lock(answer_mutex_);
    const json answer = answerer_(request);
    if (!answer_client_) {
      answer_client_ = make_client(origin_);
      answer_client_->set_keep_alive(true);
      answer_client_->set_tcp_nodelay(true);
    }
    answer_client_->set_connection_timeout(std::chrono::seconds(10));
    answer_client_->set_read_timeout(std::chrono::seconds(10));
    answer_client_->set_write_timeout(std::chrono::seconds(10));
    httplib::Headers answer_headers = headers();
    answer_headers.emplace("Accept", "application/json, text/event-stream");
    const auto res = answer_client_->Post(path_, answer_headers, imported().json_text(answer, -1), "application/json");
    const std::string what =
        "POST " + url_ + " (the answer to the server's request " + excerpt(request.value("id", json()).dump()) + ")";
    if (!res) throw TransportError(what + ": " + failure_text(res.error(), origin_));
    if (res->status / 100 != 2) throw TransportError(what + " answered HTTP " + std::to_string(res->status));
  }

  // The standalone GET stream, held open on a thread of its own while a request's POST is under
  // way (listen_during_requests): a server may send there what the call waits on (an elicitation
  // it makes without naming the request), which no one would read before the POST ends. Requests
  // are answered as they come (answer_now); the rest is kept, and queued once the POST is over.
  class Listener {
   public:
    Listener(HttpTransport& t, Deadline deadline) : t_(t), client_(make_client(t.origin_)), socket_(*client_) {
      auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
      if (left.count() <= 0) left = std::chrono::microseconds(1000);
      client_->set_connection_timeout(left);
      client_->set_read_timeout(left);
      client_->set_write_timeout(left);
      thread_ = std::thread([this] { listen(); });
      // The POST waits for the stream to be open (or refused), so that nothing the server sends
      // there for this call goes out before anyone listens; a server slow to answer a GET is not
      // waited for long.
      std::unique_lock lock(m_);
      ready_cv_.wait_until(lock, std::min(deadline, Clock::now() + kListenerStart), [this] { return ready_; });
    }

    // Ends the stream and the thread; what it received is added to `queue`, what went wrong thrown.
    void finish(std::deque<Received>& queue) {
      stop_and_join();
      // "return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream
      // at this endpoint": only that ends listening for the session; another refusal (a 409 while the
      // last request's stream is not yet closed on the server's side) is for this request alone.
      if (status_ == 405) t_.get_unsupported_ = true;
      for (auto& received : inbox_) queue.push_back(std::move(received));
      if (failure_) std::rethrow_exception(failure_);
    }

    ~Listener() { stop_and_join(); }

   private:
    void listen() {
      httplib::Request req = t_.get_request();
      SseReader sse(t_.limits_);
      bool streaming = false;
      req.response_handler = [&](const httplib::Response& res) {
        status_ = res.status;
        streaming = res.status == 200 && res.get_header_value("Content-Type").find("text/event-stream") == 0;
        signal_ready();
        return streaming;
      };
      req.content_receiver = [&](const char* data, std::size_t n, uint64_t, uint64_t) {
        try {
          std::deque<Received> got;
          sse.feed(data, n, got);
          for (auto& received : got) {
            if (imported().classify(received.message) == jsonrpc::Kind::request)
              t_.answer_now(received.message);
            else
              inbox_.push_back(std::move(received));
          }
        } catch (...) {
          failure_ = std::current_exception();
          return false;
        }
        return !stop_.load();
      };
      httplib::Response res;
      httplib::Error error = httplib::Error::Success;
      if (!stop_) client_->send(req, res, error);  // ends as the server, our stop or the deadline ends it
      signal_ready();
      finished_ = true;
    }

    void stop_and_join() {
      if (thread_.joinable()) stop_reader(stop_, finished_, socket_, thread_);
    }

    void signal_ready() {
      {
        std::lock_guard lock(m_);
        ready_ = true;
      }
      ready_cv_.notify_all();
    }

    static constexpr std::chrono::milliseconds kListenerStart{2000};
    HttpTransport& t_;
    std::unique_ptr<httplib::ClientImpl> client_;
    SocketCopy socket_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable ready_cv_;
    bool ready_ = false;
    std::atomic<bool> stop_{false}, finished_{false};
    int status_ = 0;              // written before finished_, read after the join
    std::deque<Received> inbox_;  // the same
    std::exception_ptr failure_;  // the same
  };

  httplib::Request get_request() const {
    httplib::Request req;
    req.method = "GET";
    req.path = path_;
    req.headers = headers();
    req.headers.emplace("Accept", "text/event-stream");
    return req;
  }

  // A stream the server closed (or that broke) after an event ID and before the answer to the
  // request it carries: the session era resumes it, "after a disconnection (whether due to network
  // failure or server-initiated closure)", with a GET carrying Last-Event-ID (transports,
  // 2025-11-25, "Resumability and Redelivery"); the stateless era has no resumable streams.
  struct Resumption {
    std::string last_event_id;
    json awaited;                  // the id of the request the stream answers
    Clock::time_point not_before;  // "The client MUST respect the `retry` field"
    int fruitless = 0;             // reconnections in a row that brought no new event
  };

  // Resumes the stream due first, once its reconnection time has passed, reading the GET until the
  // answer it owes arrives or it ends again (then due again, from its new last event ID).
  void resume(Deadline deadline) {
    const auto due = std::min_element(resumptions_.begin(), resumptions_.end(),
                                      [](const auto& a, const auto& b) { return a.not_before < b.not_before; });
    if (due->not_before >= deadline) {
      std::this_thread::sleep_until(deadline);
      return;
    }
    std::this_thread::sleep_until(due->not_before);
    Resumption r = std::move(*due);
    resumptions_.erase(due);
    httplib::Request req = get_request();
    req.headers.emplace("Last-Event-ID", r.last_event_id);
    const StreamEnd end = exchange(req, deadline, Purpose::resume, r.awaited);
    const std::string what = "GET " + url_ + " (resuming the SSE stream of request " + r.awaited.dump() +
                             " after event \"" + excerpt(r.last_event_id) + "\")";
    if (end.status == 0 && Clock::now() >= deadline) {  // our deadline came first: resumed at the next receive
      r.not_before = Clock::now();
      resumptions_.push_back(std::move(r));
      return;
    }
    if (end.status == 0) throw TransportError(what + ": " + failure_text(end.error, origin_));
    if (end.status != 200)
      throw TransportError(what + " answered HTTP " + std::to_string(end.status) +
                           ", and the request's answer will not come without it");
    if (!end.streaming)
      throw TransportError(what + " answered with Content-Type \"" + excerpt(end.content_type) +
                           "\", not text/event-stream");
    if (end.answered) return;
    const bool moved = !end.last_event_id.empty() && end.last_event_id != r.last_event_id;
    r.fruitless = moved ? 0 : r.fruitless + 1;
    if (r.fruitless >= kFruitlessResumptions)
      throw TransportError(what + " ended " + std::to_string(r.fruitless) + " times in a row without an event");
    if (moved) r.last_event_id = end.last_event_id;
    // A stream we cut at our deadline is resumed at once; one the server ended, after its retry.
    r.not_before = Clock::now() + (end.cut ? std::chrono::milliseconds(0) : reconnection_time_);
    resumptions_.push_back(std::move(r));
  }

  // What an exchange is for: a POST (initialize, whose answer names the session, or another), the
  // GET that listens for what the server starts, or the GET that resumes a stream.
  enum class Purpose { post, initialize, listen, resume };

  // How an exchange ended, as far as resuming its stream goes.
  struct StreamEnd {
    int status = 0;
    std::string content_type;
    bool streaming = false;  // a 200 text/event-stream
    bool answered = false;   // the awaited answer arrived on it
    bool cut = false;        // we stopped reading (the deadline, or what we read for arrived)
    httplib::Error error = httplib::Error::Success;
    std::string last_event_id;
    bool unanswered() const { return status == 200 && streaming && !answered; }
  };

  StreamEnd exchange(httplib::Request& req, Deadline deadline, Purpose purpose, const json& awaited) {
    const bool initialize = purpose == Purpose::initialize;
    const bool is_get = purpose == Purpose::listen || purpose == Purpose::resume;
    const char* verb = is_get ? "GET" : "POST";
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
    const auto answers = [&](const Received& received) {
      const auto kind = imported().classify(received.message);
      return !awaited.is_null() && (kind == jsonrpc::Kind::result || kind == jsonrpc::Kind::error) &&
             received.message["id"] == awaited;
    };
    StreamEnd end;
    req.content_receiver = [&](const char* data, std::size_t n, uint64_t, uint64_t) {
      bytes_received_ += n;
      try {
        if (streaming) {
          const auto before = queue_.size();
          sse.feed(data, n, queue_);
          got_message = got_message || queue_.size() > before;
          for (auto i = before; i < queue_.size(); ++i) end.answered = end.answered || answers(queue_[i]);
          if (purpose != Purpose::listen) answer_server_requests(before);
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
        timed_out = end.cut = true;
        return false;
      }
      // A listening GET is read until something arrives; a resumed stream until its answer does.
      const bool done = (purpose == Purpose::listen && got_message) || (purpose == Purpose::resume && end.answered);
      end.cut = end.cut || done;
      return !done;
    };
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    // A request's POST in the session era, when asked: the standalone GET stream open beside it.
    std::optional<Listener> listener;
    if (purpose == Purpose::post && listen_during_requests_ && answerer_ && !awaited.is_null() && !stateless_ &&
        !session_id_.empty() && !get_unsupported_)
      listener.emplace(*this, deadline);
    const bool ok = client_->send(req, res, error);
    if (listener) listener->finish(queue_);
    if (failure) std::rethrow_exception(failure);
    end.status = status;
    end.content_type = content_type;
    end.streaming = streaming;
    end.error = error;
    if (sse.retry()) reconnection_time_ = std::max(*sse.retry(), kLeastReconnectionTime);
    end.last_event_id = sse.last_event_id();
    if (is_get) {
      if (purpose == Purpose::listen && status != 0 && status != 200) get_unsupported_ = true;
      return end;  // a GET stream ends however it ends; what arrived is queued
    }
    // A stream that breaks after an event ID is resumed (the session era), not given up.
    const bool resumable = streaming && !stateless_ && !end.last_event_id.empty();
    const bool broke_resumably = resumable && error == httplib::Error::Read && Clock::now() < deadline;
    if (!ok && !broke_resumably &&
        !(got_message && (error == httplib::Error::Canceled || error == httplib::Error::Read))) {
      // The read timeout is the time left to the deadline: a read that failed once it passed is
      // the deadline's doing, not the server's.
      timed_out = timed_out || (error == httplib::Error::Read && Clock::now() >= deadline);
      const std::string late =
          std::string(verb) + " " + url_ + ": " +
          (status ? "the response stalled (HTTP " + std::to_string(status) + ", no complete message in time)"
                  : "no response in time");
      if (timed_out) throw RequestTimeout(late);  // our deadline, not the server's doing: the connection may be fine
      if (error == httplib::Error::Read) throw TransportError(late);
      throw TransportError(std::string(verb) + " " + url_ + ": " + failure_text(error, origin_));
    }
    last_status_ = status;
    if (status == 202 || status == 204) return end;  // a notification or response accepted
    if (status != 200 && queue_error_answer(content_type, body)) return end;
    if (status != 200)
      throw TransportError(std::string(verb) + " " + url_ + " answered HTTP " + std::to_string(status) +
                           (body.empty() ? "" : ": " + excerpt(body)));
    if (streaming) {
      // What a resumable stream broke off in the middle of, the server sends again after its ID.
      if (sse.partial() && !got_message && !resumable)
        throw TransportError("the SSE stream ended in the middle of an event");
      return end;
    }
    if (content_type.find("application/json") == std::string::npos)
      throw TransportError(std::string(verb) + " " + url_ + " answered with Content-Type \"" + excerpt(content_type) +
                           "\", neither application/json nor text/event-stream");
    Received parsed;
    try {
      parsed = imported().read_message(body, limits_);
    } catch (const InputError& e) {
      throw TransportError("the response body is not JSON: " + std::string(e.what()));
    }
    if (!parsed.message.is_array()) {
      queue_.push_back(std::move(parsed));
      return end;
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
    return end;
  }

  // What keeps a server that asks for no wait (retry: 0) from being reconnected to in a busy loop.
  static constexpr std::chrono::milliseconds kLeastReconnectionTime{10};
  // Before a server's `retry` field says otherwise: HTML leaves the initial value to the user
  // agent, "probably in the region of a few seconds".
  static constexpr std::chrono::milliseconds kInitialReconnectionTime{1000};
  // A resumed stream that ends this many times in a row without a new event is given up.
  static constexpr int kFruitlessResumptions = 20;

  std::string url_, origin_, path_;
  TransportLimits limits_;
  HttpHeaders fixed_headers_;
  HeaderOverrides next_overrides_;
  std::unique_ptr<httplib::ClientImpl> client_;
  std::string session_id_, protocol_version_;
  std::deque<Received> queue_;
  json sent_id_;  // the id of the request last POSTed (null for other messages)
  int last_status_ = 0;
  bool stateless_ = false;
  bool get_unsupported_ = false;
  bool closed_ = false;
  std::chrono::milliseconds reconnection_time_ = kInitialReconnectionTime;
  std::vector<Resumption> resumptions_;  // streams to resume, each owing the answer to a request
  ServerRequestAnswerer answerer_;
  std::mutex answer_mutex_;                             // one answer at a time (answer_now)
  std::unique_ptr<httplib::ClientImpl> answer_client_;  // answers sent while a stream is read
  bool listen_during_requests_ = false;
};

}  // namespace

namespace {

using std::chrono::milliseconds;

// The connection a serving thread is on: a handler reads it to end the connection after its answer.
class Connection;
thread_local Connection* current_connection = nullptr;

// One client connection, as the stream httplib reads requests from and writes answers to. It applies
// the limits while reading: the request line and headers within max_header bytes and header_timeout
// of their first byte, and no wait longer than idle_timeout for a byte that never comes. A limit
// crossed is answered here (431, 408), and what httplib would write after it is dropped.
//
// An answer is kept until it is complete (or 64 KiB) and sent at once: httplib writes the status
// line and headers, then the body, and each send on loopback wakes the client for half an answer.
// Whatever is kept goes out before the connection waits to read, so nothing waits on it.
class Connection : public httplib::Stream {
 public:
  Connection(int fd, const HttpServerLimits& limits, const std::atomic<bool>& stopping)
      : fd_(fd), limits_(limits), stopping_(stopping) {}

  // Waits up to idle_timeout for the next request's first byte; false when none comes, the server
  // stops, or an answer of ours already ended the exchange.
  bool wait_for_request() {
    if (!flush() || refused_) return false;
    return off_ < len_ || wait(POLLIN, Clock::now() + limits_.idle_timeout);
  }

  // Sends what is kept; false when the client cannot take it (the connection then ends).
  bool flush() {
    if (pending_.empty()) return !send_failed_;
    if (!send_failed_) send_failed_ = !send_all(pending_.data(), pending_.size(), Clock::now() + limits_.idle_timeout);
    pending_.clear();
    if (send_failed_) close_after_ = true;
    return !send_failed_;
  }
  void begin_request() {
    in_head_ = true;
    head_bytes_ = 0;
    head_deadline_ = Clock::now() + limits_.header_timeout;
  }
  void end_of_head() { in_head_ = false; }
  // The body was left unread (refused): the connection ends after this answer.
  void close_after_answer() { close_after_ = true; }
  bool closing() const { return close_after_ || refused_; }

  // Answers on its own (over capacity, a limit crossed) and ends the exchange.
  void refuse(int status, const std::string& reason, const std::string& text) {
    if (refused_) return;
    const std::string body = text + "\n";
    const std::string answer = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                               "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
                               "\r\nConnection: close\r\n\r\n" + body;
    flush();
    send_all(answer.data(), answer.size(),
             Clock::now() + std::min<milliseconds>(limits_.idle_timeout, milliseconds(2000)));
    refused_ = close_after_ = true;
  }

  // Ends the connection. A body left unread is drained for a moment first, so the client reads the
  // answer instead of a reset; nothing drained is kept.
  void close() {
    flush();
    if (close_after_) {
      ::shutdown(fd_, SHUT_WR);
      const auto until = Clock::now() + std::min<milliseconds>(limits_.idle_timeout, milliseconds(2000));
      char sink[4096];
      while (wait(POLLIN, until) && ::recv(fd_, sink, sizeof sink, 0) > 0) {
      }
    }
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
  }

  bool is_readable() const override {
    pollfd p{fd_, POLLIN, 0};
    return off_ < len_ || ::poll(&p, 1, 0) > 0;
  }
  bool is_writable() const override {
    pollfd p{fd_, POLLOUT, 0};
    return !refused_ && ::poll(&p, 1, 0) > 0;
  }
  // Whether the client has closed its side (or the connection broke): an answer streamed piece by
  // piece, which may wait long between pieces, ends then rather than at its next write.
  bool peer_closed() const {
    pollfd p{fd_, POLLRDHUP, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
  }

  ssize_t read(char* ptr, std::size_t size) override {
    if (refused_) return -1;
    if (off_ == len_) {
      // Bytes already here are taken without a poll; before waiting, a kept answer (such as
      // "100 Continue") goes out.
      ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (!flush()) return -1;
        if (!wait(POLLIN, in_head_ ? head_deadline_ : Clock::now() + limits_.idle_timeout)) {
          if (in_head_ && !stopping_)
            refuse(408, "Request Timeout", "Request Timeout: the request line and headers took longer than the limit");
          return -1;
        }
        n = ::recv(fd_, buffer_, sizeof buffer_, 0);
      }
      if (n <= 0) return n;
      off_ = 0;
      len_ = static_cast<std::size_t>(n);
    }
    std::size_t take = std::min(size, len_ - off_);
    if (in_head_) {
      if (head_bytes_ + take > limits_.max_header) {
        refuse(431, "Request Header Fields Too Large",
               "Request Header Fields Too Large: the request line and headers are over " +
                   std::to_string(limits_.max_header) + " bytes");
        return -1;
      }
      head_bytes_ += take;
    }
    std::memcpy(ptr, buffer_ + off_, take);
    off_ += take;
    return static_cast<ssize_t>(take);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    if (refused_ || send_failed_) return -1;  // what httplib says after a refusal of ours is not sent
    if (pending_.size() + size > kept_bytes && !flush()) return -1;
    if (size > kept_bytes)
      return send_all(ptr, size, Clock::now() + limits_.idle_timeout) ? static_cast<ssize_t>(size) : -1;
    pending_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }

  // httplib asks for both addresses on every request: they are looked up once per connection.
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    if (!remote_) remote_ = address(::getpeername);
    std::tie(ip, port) = *remote_;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    if (!local_) local_ = address(::getsockname);
    std::tie(ip, port) = *local_;
  }
  ::socket_t socket() const override { return fd_; }

 private:
  // Waits for the socket to be ready, in short slices so a stopping server is noticed.
  bool wait(short events, Clock::time_point until) const {
    for (;;) {
      if (stopping_) return false;
      const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, events, 0};
      const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
      if (rc > 0) return true;
      if (rc < 0 && errno != EINTR) return false;
    }
  }
  // Sends all of it, waiting (until the deadline) only while the socket's buffer is full.
  bool send_all(const char* data, std::size_t size, Clock::time_point until) {
    while (size > 0) {
      const ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        if (!wait(POLLOUT, until)) return false;
        continue;
      }
      if (n <= 0) return false;
      data += n;
      size -= static_cast<std::size_t>(n);
    }
    return true;
  }
  template <class Name>
  std::pair<std::string, int> address(Name name) const {
    sockaddr_storage addr{};
    socklen_t length = sizeof addr;
    char host[NI_MAXHOST] = "", service[NI_MAXSERV] = "";
    if (name(fd_, reinterpret_cast<sockaddr*>(&addr), &length) == 0 &&
        ::getnameinfo(reinterpret_cast<sockaddr*>(&addr), length, host, sizeof host, service, sizeof service,
                      NI_NUMERICHOST | NI_NUMERICSERV) == 0)
      return {host, std::atoi(service)};
    return {};
  }

  static constexpr std::size_t kept_bytes = 64 * 1024;

  int fd_;
  const HttpServerLimits& limits_;
  const std::atomic<bool>& stopping_;
  char buffer_[4096];
  std::size_t off_ = 0, len_ = 0;
  bool in_head_ = false, close_after_ = false, refused_ = false, send_failed_ = false;
  std::string pending_;
  mutable std::optional<std::pair<std::string, int>> remote_, local_;
  std::size_t head_bytes_ = 0;
  Clock::time_point head_deadline_;
};

// A thread for every connection, so a connection that waits (idle, or a client that never reads)
// holds only its own thread; finished threads are joined as new ones start, all of them on shutdown.
class ThreadPerConnection : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
    std::lock_guard lock(mutex_);
    reap();
    auto done = std::make_shared<std::atomic<bool>>(false);
    try {
      threads_.emplace_back(std::thread([fn, done] {
                              fn();
                              *done = true;
                            }),
                            done);
    } catch (const std::system_error&) {  // no thread to be had: served at once, as over capacity
      overloaded_here = true;
      fn();
      overloaded_here = false;
    }
  }
  void shutdown() override {
    std::lock_guard lock(mutex_);
    for (auto& [thread, done] : threads_) thread.join();
    threads_.clear();
  }
  void on_idle() override {
    std::lock_guard lock(mutex_);
    reap();
  }
  static thread_local bool overloaded_here;

 private:
  void reap() {
    std::erase_if(threads_, [](auto& entry) {
      if (!*entry.second) return false;
      entry.first.join();
      return true;
    });
  }
  std::mutex mutex_;
  std::vector<std::pair<std::thread, std::shared_ptr<std::atomic<bool>>>> threads_;
};
thread_local bool ThreadPerConnection::overloaded_here = false;

// httplib's server with each connection read through a Connection (above).
class LimitedServer : public httplib::Server {
 public:
  LimitedServer(const HttpServerLimits& limits, const std::atomic<bool>& stopping)
      : limits_(limits), stopping_(stopping) {
    new_task_queue = [] { return new ThreadPerConnection; };
    set_payload_max_length(limits.max_body);
    set_keep_alive_max_count(100);
    set_keep_alive_timeout(std::max<time_t>(1, std::chrono::ceil<std::chrono::seconds>(limits.idle_timeout).count()));
  }
  // A deeper queue of connections waiting to be accepted than httplib's 5.
  void deepen_backlog() { ::listen(svr_sock_, 128); }

 private:
  bool process_and_close_socket(::socket_t sock) override {
    Connection connection(sock, limits_, stopping_);
    const std::size_t open = ++open_;
    if (ThreadPerConnection::overloaded_here || open > limits_.max_connections) {
      connection.refuse(503, "Service Unavailable",
                        "Service Unavailable: " + std::to_string(limits_.max_connections) + " connections are open");
    } else {
      current_connection = &connection;
      for (std::size_t served = 1; served <= 100 && connection.wait_for_request(); ++served) {
        connection.begin_request();
        bool closed = false;
        const bool ok =
            process_request(connection, served == 100, closed, [&](httplib::Request&) { connection.end_of_head(); });
        if (!ok || closed || connection.closing()) break;
      }
      current_connection = nullptr;
    }
    connection.close();
    --open_;
    return true;
  }

  const HttpServerLimits& limits_;
  const std::atomic<bool>& stopping_;
  std::atomic<std::size_t> open_{0};
};

// A refusal the server makes before reading a body, and the connection ends after it.
void refuse_unread(httplib::Response& res, int status, const std::string& text) {
  res.status = status;
  res.set_content(text, "text/plain");
  res.set_header("Connection", "close");
  if (current_connection) current_connection->close_after_answer();
}

// Header names compare without regard to ASCII case (RFC 9110, 5.1).
bool same_name(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

// The headers a handler reads, in one pass: httplib's look-up by name compares a character at a time
// through tolower, and fifteen of them were a tenth of a mock's time per call. Where a header
// comes more than once, the first is kept, as httplib's get_header_value does.
HttpRequestView read_headers(const httplib::Request& req) {
  HttpRequestView view;
  struct Wanted {
    std::string_view name;
    std::string* value;
    bool* present;
  };
  bool session_id = false, origin = false, authorization = false, last_event_id = false;
  const Wanted wanted[] = {
      {"Mcp-Session-Id", &view.session_id, &session_id},
      {"MCP-Protocol-Version", &view.protocol_version, &view.has_protocol_version},
      {"Origin", &view.origin, &origin},
      {"Authorization", &view.authorization, &authorization},
      {"Mcp-Method", &view.mcp_method, &view.has_mcp_method},
      {"Mcp-Name", &view.mcp_name, &view.has_mcp_name},
      {"Content-Type", &view.content_type, &view.has_content_type},
      {"Accept", &view.accept, &view.has_accept},
      {"Last-Event-ID", &view.last_event_id, &last_event_id},
  };
  constexpr std::string_view param_prefix = "Mcp-Param-";
  for (const auto& [name, value] : req.headers) {
    if (name.size() > param_prefix.size() &&
        same_name(std::string_view(name).substr(0, param_prefix.size()), param_prefix))
      view.params.emplace_back(name.substr(param_prefix.size()), value);
    for (const Wanted& w : wanted)
      if (!*w.present && same_name(name, w.name)) {
        *w.value = value;
        *w.present = true;
        break;
      }
  }
  return view;
}

// An HttpServer as the module serves it.
class ServerImpl : public http_module::ServerBackend {
 public:
  ServerImpl(HttpServer::Handler handler, const HttpServerLimits& limits)
      : handler_(std::move(handler)), limits_(limits), server_(limits_, stopping_) {}
  ~ServerImpl() override { stop(); }

  int listen(const std::string& host, int port, const std::string& path) override {
    host_ = host;
    const bool every_path = path == "/*";
    path_ = every_path ? "" : path;
    const std::string route = every_path ? "/.*" : path;
    server_.set_tcp_nodelay(true);
    auto serve = [this](const httplib::Request& req, const std::string& body, httplib::Response& res) {
      HttpRequestView view = read_headers(req);
      view.method = req.method;
      view.path = req.path;
      view.body = body;
      HttpReply reply = handler_(view);
      res.status = reply.status;
      for (const auto& [k, v] : reply.headers) res.set_header(k, v);
      if (reply.stall_after_headers) {
        res.set_chunked_content_provider(reply.content_type, [this](std::size_t, httplib::DataSink&) {
          if (current_connection) current_connection->flush();  // the headers go out before the stall
          while (!stopping_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
          return false;
        });
        return;
      }
      if (reply.more) {
        res.set_chunked_content_provider(reply.content_type,
                                         [this, body = std::move(reply.body), more = std::move(reply.more)](
                                             std::size_t, httplib::DataSink& sink) mutable {
                                           std::optional<std::string> piece = std::exchange(body, {});
                                           if (piece->empty()) {
                                             if (current_connection)
                                               current_connection->flush();  // what is written goes out before a wait
                                             const bool gone = current_connection && current_connection->peer_closed();
                                             piece = stopping_ || gone ? std::nullopt : more();
                                           }
                                           if (!piece) {
                                             sink.done();
                                             return true;
                                           }
                                           if (piece->empty()) return true;  // an empty chunk would end the stream
                                           const bool written = sink.write(piece->data(), piece->size());
                                           if (current_connection)
                                             current_connection->flush();  // each piece as it is made
                                           return written;
                                         });
        return;
      }
      if (!reply.body.empty() || reply.status == 200) res.set_content(reply.body, reply.content_type);
    };
    // A body is read as it arrives and refused once over max_body: memory stays flat.
    auto serve_reading = [this, serve](const httplib::Request& req, httplib::Response& res,
                                       const httplib::ContentReader& read) {
      std::string body;
      bool too_large = false;
      read([&](const char* data, std::size_t n) {
        too_large = body.size() + n > limits_.max_body;
        if (!too_large) body.append(data, n);
        return !too_large;
      });
      if (too_large)
        return refuse_unread(res, 413, "Payload Too Large: a body over " + std::to_string(limits_.max_body) + " bytes");
      serve(req, body, res);
    };
    auto serve_bodiless = [serve](const httplib::Request& req, httplib::Response& res) { serve(req, req.body, res); };
    // Before any body is read: one announced over the limit is refused unread, and so is a body on a
    // request that takes none (only POST and DELETE are read through serve_reading).
    server_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      const std::string length = req.get_header_value("Content-Length");
      std::uint64_t announced = 0;
      if (!length.empty() && (std::from_chars(length.data(), length.data() + length.size(), announced).ptr !=
                                  length.data() + length.size() ||
                              announced > limits_.max_body)) {
        refuse_unread(res, 413, "Payload Too Large: a body over " + std::to_string(limits_.max_body) + " bytes");
        return httplib::Server::HandlerResponse::Handled;
      }
      if (req.method != "POST" && req.method != "DELETE" && req.has_header("Transfer-Encoding")) {
        refuse_unread(res, 400, "Bad Request: a " + req.method + " request has no body");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server_.Post(route, serve_reading);
    server_.Post(route, serve_bodiless);
    server_.Delete(route, serve_reading);
    server_.Delete(route, serve_bodiless);
    server_.Get(route, serve_bodiless);
    port_ = port == 0 ? server_.bind_to_any_port(host) : (server_.bind_to_port(host, port) ? port : -1);
    if (port_ <= 0) throw TransportError("cannot listen on " + host + ":" + std::to_string(port));
    server_.deepen_backlog();
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    return port_;
  }

  std::string url() const override { return "http://" + host_ + ":" + std::to_string(port_) + path_; }

  void stop() override {
    stopping_ = true;
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }

 private:
  HttpServer::Handler handler_;
  HttpServerLimits limits_;
  std::atomic<bool> stopping_{false};
  LimitedServer server_;
  std::thread thread_;
  std::string host_, path_;
  int port_ = 0;
};

std::unique_ptr<Transport> make_transport(const std::string& url, const TransportLimits& limits,
                                          const HttpHeaders& headers) {
  return std::make_unique<HttpTransport>(url, limits, headers);
}

std::unique_ptr<http_module::ServerBackend> make_server(HttpServer::Handler handler, HttpServerLimits limits) {
  return std::make_unique<ServerImpl>(std::move(handler), limits);
}

}  // namespace
}  // namespace mcp_hints

// The module's one entry, found by name when it is loaded (http_module.cpp).
extern "C" __attribute__((visibility("default"))) const mcp_hints::http_module::Entry* mcp_hints_http_module(
    const mcp_hints::http_module::Imports* imports) {
  mcp_hints::imports = imports;
  static const mcp_hints::http_module::Entry entry{mcp_hints::http_module::kBuild, &mcp_hints::make_transport,
                                                   &mcp_hints::make_server};
  return &entry;
}
