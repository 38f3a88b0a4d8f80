// Drives a server with sequential tools/call round trips through the mcp-hints client, and
// measures time from spawn to the initialize answer, calls per second and the server's peak RSS.
//   mock_rpc CALLS stdio|http -- COMMAND [ARGS...]
//   mock_rpc CALLS floor      the machine's bare pipe ping-pong between two processes
//   mock_rpc CALLS tcp-floor  the same over one TCP connection on 127.0.0.1 (the HTTP ceiling)
// For http the command must print its URL as the first line of stdout.
// Prints one JSON line: {"startup_ms", "calls", "seconds", "calls_per_second", "peak_rss_kib"}.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>

#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/transport.hpp"

using namespace mcp_hints;

namespace {

long peak_rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// A floor's figures, as one JSON line.
int print_rate(long rounds, double seconds) {
  std::cout << nlohmann::json{{"calls", rounds},
                              {"seconds", seconds},
                              {"calls_per_second", static_cast<double>(rounds) / seconds}}
            << std::endl;
  return 0;
}

}  // namespace

// The ceiling for any stdio server: two processes passing 100 bytes back and forth on pipes.
int pipe_floor(long rounds) {
  int there[2], back[2];
  if (::pipe(there) != 0 || ::pipe(back) != 0) return 1;
  char buffer[100] = {};
  const pid_t child = ::fork();
  if (child == 0) {
    for (long i = 0; i < rounds; ++i)
      if (::read(there[0], buffer, sizeof buffer) <= 0 || ::write(back[1], buffer, sizeof buffer) <= 0) _exit(1);
    _exit(0);
  }
  const auto start = Clock::now();
  for (long i = 0; i < rounds; ++i)
    if (::write(there[1], buffer, sizeof buffer) <= 0 || ::read(back[0], buffer, sizeof buffer) <= 0) return 1;
  const double seconds = ms_since(start) / 1000;
  ::waitpid(child, nullptr, 0);
  return print_rate(rounds, seconds);
}

// The ceiling for any server over HTTP on this machine: two processes passing 300 bytes (about an
// MCP request or answer with its HTTP head) back and forth on one kept-alive TCP connection, with
// Nagle off as our client and server have it.
int tcp_floor(long rounds) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener, 1) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return 1;
  const int one = 1;
  char buffer[300] = {};
  // Reads one whole message of sizeof buffer bytes.
  const auto read_message = [&buffer](int fd) {
    for (std::size_t got = 0; got < sizeof buffer;) {
      const ssize_t n = ::recv(fd, buffer + got, sizeof buffer - got, 0);
      if (n <= 0) return false;
      got += static_cast<std::size_t>(n);
    }
    return true;
  };
  const pid_t child = ::fork();
  if (child == 0) {
    const int fd = ::accept(listener, nullptr, nullptr);
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (long i = 0; i < rounds; ++i)
      if (!read_message(fd) || ::send(fd, buffer, sizeof buffer, MSG_NOSIGNAL) <= 0) _exit(1);
    _exit(0);
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return 1;
  const auto start = Clock::now();
  for (long i = 0; i < rounds; ++i)
    if (::send(fd, buffer, sizeof buffer, MSG_NOSIGNAL) <= 0 || !read_message(fd)) return 1;
  const double seconds = ms_since(start) / 1000;
  ::close(fd);
  ::waitpid(child, nullptr, 0);
  return print_rate(rounds, seconds);
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[2]) == "floor") return pipe_floor(std::stol(argv[1]));
  if (argc == 3 && std::string(argv[2]) == "tcp-floor") return tcp_floor(std::stol(argv[1]));
  if (argc < 5 || std::string(argv[3]) != "--") {
    std::cerr << "usage: mock_rpc CALLS stdio|http -- COMMAND [ARGS...] | mock_rpc CALLS floor|tcp-floor\n";
    return 2;
  }
  const long calls = std::stol(argv[1]);
  const bool http = std::string(argv[2]) == "http";
  ProcessOptions process;
  for (int i = 4; i < argc; ++i) process.argv.push_back(argv[i]);
  try {
    const auto spawned = Clock::now();
    std::unique_ptr<Transport> transport;
    std::unique_ptr<ChildProcess> server;
    pid_t pid;
    if (http) {
      server = std::make_unique<ChildProcess>(process);
      std::string out;
      while (out.find('\n') == std::string::npos &&
             server->read(out, 4096, Clock::now() + std::chrono::seconds(20)) == ChildProcess::ReadStatus::data) {
      }
      transport = connect({{}, out.substr(0, out.find('\n')), {}, {}}, {});
      pid = server->pid();
    } else {
      auto stdio = std::make_unique<StdioTransport>(process);
      pid = stdio->pid();
      transport = std::move(stdio);
    }
    McpClientSession session(*transport);
    session.initialize();
    const double startup = ms_since(spawned);
    const auto start = Clock::now();
    for (long i = 0; i < calls; ++i) session.call_tool("echo", nlohmann::json::object());
    const double seconds = ms_since(start) / 1000;
    const long rss = peak_rss_kib(pid);
    std::cout << nlohmann::json{{"startup_ms", startup},
                                {"calls", calls},
                                {"seconds", seconds},
                                {"calls_per_second", static_cast<double>(calls) / seconds},
                                {"peak_rss_kib", rss}}
              << std::endl;
    transport->close();
  } catch (const std::exception& e) {
    std::cerr << "mock_rpc: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
