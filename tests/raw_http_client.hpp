#pragma once
// A raw HTTP/1.1 client for the tests of servers: it sends exactly what it is told (a hostile
// client's bytes as well as a well-formed request) and reads what comes, each wait bounded.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

namespace test_support {

using Clock = std::chrono::steady_clock;  // as mcp_hints::Clock

// A raw TCP client: sends what it is told, reads what comes, each wait bounded.
class RawClient {
 public:
  explicit RawClient(int port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawClient() { ::close(fd_); }
  bool connected() const { return connected_; }

  bool send_all(std::string_view data) {
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  // Whether something (or the end) can be read before the deadline.
  bool readable(Clock::time_point deadline) const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left))) > 0;
  }
  // What arrives until the peer closes, the deadline, or (complete) one whole answer: its headers
  // and a Content-Length body.
  std::string read(Clock::time_point deadline, bool complete) {
    std::string out;
    char buffer[65536];
    while (readable(deadline)) {
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
      const auto head_end = out.find("\r\n\r\n");
      if (!complete || head_end == std::string::npos) continue;
      const auto length = out.find("Content-Length: ");
      const std::size_t body = length < head_end ? std::stoul(out.substr(length + 16)) : 0;
      if (out.size() >= head_end + 4 + body) break;
    }
    return out;
  }
  std::string read_all(Clock::time_point deadline) { return read(deadline, false); }
  std::string read_answer(Clock::time_point deadline) { return read(deadline, true); }
  // Whether the server closed the connection (an end or a reset) before the deadline.
  bool closed_by_peer(Clock::time_point deadline) {
    char byte;
    while (readable(deadline)) {
      const ssize_t n = ::recv(fd_, &byte, 1, 0);
      if (n <= 0) return true;
    }
    return false;
  }
  int fd() const { return fd_; }

 private:
  int fd_;
  bool connected_ = false;
};

inline int status_of(const std::string& answer) {
  return answer.starts_with("HTTP/1.1 ") ? std::stoi(answer.substr(9, 3)) : 0;
}
inline std::string body_of(const std::string& answer) {
  const auto end = answer.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : answer.substr(end + 4);
}
inline std::string header_of(const std::string& answer, const std::string& name) {
  const auto at = answer.find("\r\n" + name + ": ");
  if (at == std::string::npos || at > answer.find("\r\n\r\n")) return {};
  const auto start = at + name.size() + 4;
  return answer.substr(start, answer.find("\r\n", start) - start);
}

}  // namespace test_support
