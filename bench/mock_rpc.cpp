// Drives a server with sequential tools/call round trips through the mcp-hints client, and
// measures time from spawn to the initialize answer, calls per second and the server's peak RSS.
//   mock_rpc CALLS stdio|http -- COMMAND [ARGS...]
//   mock_rpc CALLS stdio-bare -- COMMAND [ARGS...]   the client side of the pipe floor (below)
//   mock_rpc CALLS floor      the machine's bare pipe ping-pong between two processes
//   mock_rpc CALLS tcp-floor  the same over one TCP connection on 127.0.0.1 (the HTTP ceiling)
// For http the command must print its URL as the first line of stdout.
// Prints one JSON line: {"startup_ms", "calls", "seconds", "calls_per_second", "peak_rss_kib"}.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <csignal>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

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

// A server's run's figures, as one JSON line.
int print_run(double startup_ms, long calls, double seconds, long peak_rss_kib) {
  std::cout << nlohmann::json{{"startup_ms", startup_ms},
                              {"calls", calls},
                              {"seconds", seconds},
                              {"calls_per_second", static_cast<double>(calls) / seconds},
                              {"peak_rss_kib", peak_rss_kib}}
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

// The mock measured against the pipe floor with a client that costs what the floor's does: each
// request is prebuilt and written with one write(2), each answer read with read(2) up to its line
// end. Every answer is still checked whole: the first one parsed (a result to the request's id),
// every later one compared byte for byte with it, the id put in. A hung server is the caller's
// to stop (compare.sh runs every command under a time limit).
namespace bare {

pid_t server = -1;  // the server started, ended with the run whatever becomes of it

[[noreturn]] void fail(const std::string& why) {
  std::cerr << "mock_rpc: " << why << "\n";
  if (server > 0) ::kill(server, SIGKILL);  // a server that stopped reading or answering is left behind by no run
  std::exit(1);
}

struct Pipes {
  int to = -1, from = -1;
  std::string pending;  // read, from `next` on not yet taken
  std::size_t next = 0;

  void send(const std::string& line) {
    for (std::size_t done = 0; done < line.size();) {
      const ssize_t n = ::write(to, line.data() + done, line.size() - done);
      if (n <= 0) fail("the server stopped reading");
      done += static_cast<std::size_t>(n);
    }
  }
  // The next line, without its line end; valid until the next call.
  std::string_view receive() {
    std::size_t end;
    while ((end = pending.find('\n', next)) == std::string::npos) {
      pending.erase(0, next);
      next = 0;
      char buffer[4096];
      const ssize_t n = ::read(from, buffer, sizeof buffer);
      if (n <= 0) fail("the server closed its output before answering");
      pending.append(buffer, static_cast<std::size_t>(n));
    }
    const std::string_view line(pending.data() + next, end - next);
    next = end + 1;
    return line;
  }
};

std::string request(long id, const std::string& method, const nlohmann::json& params) {
  return nlohmann::json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() + "\n";
}

// The answer's result; fails unless it is a JSON-RPC result to `id`.
nlohmann::json result_of(std::string_view line, long id) {
  const auto answer = nlohmann::json::parse(line, nullptr, false);
  if (!answer.is_object() || answer.value("jsonrpc", "") != "2.0" || !answer.contains("id") || answer["id"] != id ||
      !answer.contains("result") || !answer["result"].is_object())
    fail("not a result to request " + std::to_string(id) + ": " + std::string(line.substr(0, 200)));
  return answer["result"];
}

int run(long calls, char** command) {
  int there[2], back[2];
  if (::pipe2(there, O_CLOEXEC) != 0 || ::pipe2(back, O_CLOEXEC) != 0) fail("cannot make pipes");
  std::signal(SIGPIPE, SIG_IGN);  // a server gone is a failed write, said as such
  const auto spawned = Clock::now();
  const pid_t child = ::fork();
  if (child < 0) fail("cannot fork");
  if (child == 0) {
    ::dup2(there[0], 0);
    ::dup2(back[1], 1);
    ::execvp(command[0], command);
    _exit(127);
  }
  server = child;
  ::close(there[0]);
  ::close(back[1]);
  Pipes pipes{there[1], back[0], {}};
  pipes.send(request(0, "initialize",
                     {{"protocolVersion", "2025-06-18"},
                      {"capabilities", nlohmann::json::object()},
                      {"clientInfo", {{"name", "mock_rpc"}, {"version", "1"}}}}));
  if (!result_of(pipes.receive(), 0).contains("protocolVersion")) fail("the initialize result has no protocolVersion");
  const double startup = ms_since(spawned);
  pipes.send(nlohmann::json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() + "\n");
  const nlohmann::json params = {{"name", "echo"}, {"arguments", nlohmann::json::object()}};
  std::vector<std::string> requests;
  for (long id = 1; id <= calls; ++id) requests.push_back(request(id, "tools/call", params));
  // The first answer, parsed, gives the bytes every later one must have around its id.
  std::string before, after;
  const auto start = Clock::now();
  for (long id = 1; id <= calls; ++id) {
    pipes.send(requests[static_cast<std::size_t>(id - 1)]);
    const std::string_view answer = pipes.receive();
    if (id == 1) {
      if (result_of(answer, 1).value("isError", false))
        fail("the first call failed: " + std::string(answer.substr(0, 200)));
      const std::size_t at = answer.find("\"id\":1");
      if (at == std::string::npos || answer.find("\"id\":1", at + 1) != std::string::npos)
        fail("the first answer does not name its id once as \"id\":1: " + std::string(answer.substr(0, 200)));
      before = answer.substr(0, at + 5);
      after = answer.substr(at + 6);
      continue;
    }
    char digits[24];
    const std::string_view id_text(digits,
                                   static_cast<std::size_t>(std::to_chars(digits, digits + 24, id).ptr - digits));
    if (answer.size() != before.size() + id_text.size() + after.size() || !answer.starts_with(before) ||
        answer.substr(before.size(), id_text.size()) != id_text || !answer.ends_with(after))
      fail("answer " + std::string(id_text) + " differs from the first: " + std::string(answer.substr(0, 200)));
  }
  const double seconds = ms_since(start) / 1000;
  const long rss = peak_rss_kib(child);
  ::close(pipes.to);  // end of input: the server exits
  ::close(pipes.from);
  int status = 0;
  ::waitpid(child, &status, 0);
  return print_run(startup, calls, seconds, rss);
}

}  // namespace bare

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[2]) == "floor") return pipe_floor(std::stol(argv[1]));
  if (argc == 3 && std::string(argv[2]) == "tcp-floor") return tcp_floor(std::stol(argv[1]));
  if (argc < 5 || std::string(argv[3]) != "--") {
    std::cerr << "usage: mock_rpc CALLS stdio|stdio-bare|http -- COMMAND [ARGS...] | mock_rpc CALLS floor|tcp-floor\n";
    return 2;
  }
  const long calls = std::stol(argv[1]);
  if (std::string(argv[2]) == "stdio-bare") return bare::run(calls, argv + 4);
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
    const ClientOptions options;  // named: a temporary one made gcc 12 warn (-Wmaybe-uninitialized) at -O3
    McpClientSession session(*transport, options);
    session.initialize();
    const double startup = ms_since(spawned);
    const auto start = Clock::now();
    for (long i = 0; i < calls; ++i) session.call_tool("echo", nlohmann::json::object());
    const double seconds = ms_since(start) / 1000;
    const long rss = peak_rss_kib(pid);
    print_run(startup, calls, seconds, rss);
    transport->close();
  } catch (const std::exception& e) {
    std::cerr << "mock_rpc: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
