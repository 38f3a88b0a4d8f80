// Hostile clients against the mock server, as a client under test could be: over HTTP, idle
// connections that never send a byte, a 100 MB body, 64 KB of headers, a batch, a body that is not
// JSON, the wrong Content-Type or Accept, unknown and deleted sessions, a DELETE racing a request, a
// request after the scenario ended; over stdio, a 100 MB line, invalid UTF-8, and 100k requests
// whose answers are not read. Every wait has a generous deadline: the tests assert outcomes and
// their order, never how fast.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/transport.hpp"
#include "mock_support.hpp"
#include "raw_http_client.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;
using mcp_hints::Clock;
using test_support::body_of;
using test_support::header_of;
using test_support::http_mock;
using test_support::initialize_request;
using test_support::RawClient;
using test_support::status_of;
using namespace std::chrono_literals;

namespace {

auto generous() { return Clock::now() + 60s; }

int port_of(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

// A process's memory in MiB, from /proc (VmHWM: its peak, VmRSS: now).
long memory_mib(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(field + ":")) return std::stol(line.substr(field.size() + 1)) / 1024;
  return -1;
}

// One POST over its own connection; headers as given (each "Name: value").
std::string post(int port, const std::string& body, const std::vector<std::string>& headers,
                 const std::string& method = "POST") {
  RawClient c(port);
  std::string request = method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  for (const auto& h : headers) request += h + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  if (!c.connected() || !c.send_all(request)) return {};
  return c.read_all(generous());
}

const std::vector<std::string> kGood = {"Content-Type: application/json",
                                        "Accept: application/json, text/event-stream"};

// A session opened with initialize: its id.
std::string open_session(int port) {
  const auto answer = post(port, initialize_request().dump(), kGood);
  EXPECT_EQ(status_of(answer), 200) << answer;
  return header_of(answer, "Mcp-Session-Id");
}

std::vector<std::string> with(std::vector<std::string> headers, const std::string& more) {
  headers.push_back(more);
  return headers;
}

// A working client's whole exchange through the library's transport: initialize, then tools/list.
bool served(const std::string& url) {
  mcp_hints::ServerTarget target;
  target.url = url;
  auto t = mcp_hints::connect(target, {});
  t->send(initialize_request(), generous());
  const auto hello = t->receive(generous());
  t->send(rpc::request(1, "tools/list"), generous());
  const auto listing = t->receive(generous());
  return hello && hello->contains("result") && listing && (*listing)["result"]["tools"].is_array();
}

}  // namespace

// 200 connections that never send a byte hold no worker a working client needs: it is served
// while every one of them is still open (the idle timeout, a minute, has not come), where a pool
// of 16 threads made it wait for a dozen idle timeouts in turn.
TEST(HostileHttpClient, IdleConnectionsDoNotStarveAWorkingClient) {
  const auto mock = http_mock({"--scenario", "mock.basic", "--idle-timeout", "60s"});
  const int port = port_of(mock.url);
  std::vector<std::unique_ptr<RawClient>> idle;
  for (int i = 0; i < 200; ++i) {
    idle.push_back(std::make_unique<RawClient>(port));
    ASSERT_TRUE(idle.back()->connected()) << i;
  }
  EXPECT_TRUE(served(mock.url));
  std::size_t still_open = 0;
  for (auto& c : idle) still_open += c->readable(Clock::now()) ? 0 : 1;
  EXPECT_EQ(still_open, 200u) << "the working client was served only after idle connections were closed";
}

// The idle ones are closed once the idle timeout passes, and the server goes on serving.
TEST(HostileHttpClient, IdleConnectionsAreClosedAfterTheIdleTimeout) {
  const auto mock = http_mock({"--scenario", "mock.basic", "--idle-timeout", "500ms"});
  const int port = port_of(mock.url);
  std::vector<std::unique_ptr<RawClient>> idle;
  for (int i = 0; i < 200; ++i) idle.push_back(std::make_unique<RawClient>(port));
  std::size_t closed = 0;
  for (auto& c : idle) closed += c->closed_by_peer(generous()) ? 1 : 0;
  EXPECT_EQ(closed, 200u);
  EXPECT_TRUE(served(mock.url));
}

// A 100 MB body is refused with 413 before it has all been sent, and the mock's peak memory
// stays flat (it read at most --max-message of it); announced by Content-Length or chunked.
TEST(HostileHttpClient, AHundredMegabyteBodyIsRefusedEarlyAndMemoryStaysFlat) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const pid_t pid = mock.process->pid();
  const long before = memory_mib(pid, "VmHWM");
  ASSERT_GT(before, 0);
  constexpr std::size_t kHundredMb = std::size_t{100} << 20;
  for (const bool chunked : {false, true}) {
    SCOPED_TRACE(chunked ? "chunked" : "Content-Length");
    RawClient c(port);
    ASSERT_TRUE(c.connected());
    std::string head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n";
    head +=
        chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: " + std::to_string(kHundredMb) + "\r\n\r\n";
    ASSERT_TRUE(c.send_all(head));
    const std::string piece(65536, 'x');
    const std::string chunk = chunked ? "10000\r\n" + piece + "\r\n" : piece;
    std::size_t sent = 0;
    // Send until the answer comes (or the server stops reading); never more than the 100 MB.
    while (sent < kHundredMb && !c.readable(Clock::now())) {
      pollfd p{c.fd(), POLLOUT, 0};
      if (::poll(&p, 1, 10000) <= 0 || !c.send_all(chunk)) break;
      sent += piece.size();
    }
    const std::string answer = c.read_answer(generous());
    EXPECT_EQ(status_of(answer), 413) << answer.substr(0, 200);
    EXPECT_NE(body_of(answer).find("Payload Too Large"), std::string::npos) << answer.substr(0, 200);
    EXPECT_LT(sent, kHundredMb) << "the answer came only after the whole body was sent";
  }
  const long after = memory_mib(pid, "VmHWM");
  if (test_support::kMemoryMeasurable) {
    EXPECT_LT(after - before, 40) << "peak memory went from " << before << " to " << after << " MiB";
  }
  EXPECT_TRUE(served(mock.url));
}

// 64 KB of headers are refused (431) and the server goes on; 8 KB of them are served (the control).
TEST(HostileHttpClient, SixtyFourKilobytesOfHeadersAreRefused) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  auto padded = [](std::size_t kilobytes) {
    std::vector<std::string> headers = kGood;
    for (std::size_t i = 0; i < kilobytes; ++i)
      headers.push_back("X-Pad-" + std::to_string(i) + ": " + std::string(1000, 'p'));
    return headers;
  };
  const auto refused = post(port, initialize_request().dump(), padded(64));
  EXPECT_TRUE(status_of(refused) == 431 || status_of(refused) == 400) << refused.substr(0, 200);
  EXPECT_EQ(status_of(post(port, initialize_request().dump(), padded(8))), 200);
  EXPECT_TRUE(served(mock.url));
}

// Input that is not one JSON-RPC message cannot be accepted: HTTP 400 with the JSON-RPC error that
// has no id (-32600 for a batch, which 2025-06-18 removed; -32700 for a body that is not JSON).
TEST(HostileHttpClient, ABatchOrABodyThatIsNotJsonGets400WithAnErrorWithoutId) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const std::string session = open_session(port);
  ASSERT_FALSE(session.empty());
  const auto headers = with(with(kGood, "Mcp-Session-Id: " + session), "MCP-Protocol-Version: 2025-11-25");
  const json batch = json::array({rpc::request(1, "ping"), rpc::request(2, "tools/list")});
  for (const auto& [body, code] : {std::pair<std::string, int>{batch.dump(), -32600}, {"this is not JSON", -32700}}) {
    const auto answer = post(port, body, headers);
    EXPECT_EQ(status_of(answer), 400) << answer;
    const json error = json::parse(body_of(answer), nullptr, false);
    EXPECT_EQ(error["error"]["code"], code) << answer;
    EXPECT_TRUE(error.contains("id") && error["id"].is_null()) << answer;
  }
  // The control: a single request in the same session is answered.
  EXPECT_EQ(status_of(post(port, rpc::request(3, "ping").dump(), headers)), 200);
}

// A POST must say it sends JSON (else 415) and accept both answer forms (else 406).
TEST(HostileHttpClient, WrongContentTypeOrAcceptIsRefused) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const std::string body = initialize_request().dump();
  EXPECT_EQ(status_of(post(port, body, {"Content-Type: text/plain", kGood[1]})), 415);
  EXPECT_EQ(status_of(post(port, body, {kGood[1]})), 415);
  EXPECT_EQ(status_of(post(port, body, {kGood[0], "Accept: application/json"})), 406);
  EXPECT_EQ(status_of(post(port, body, {kGood[0], "Accept: text/html"})), 406);
  EXPECT_EQ(status_of(post(port, body, {kGood[0]})), 406);
  // The controls: parameters and wildcards are understood.
  EXPECT_EQ(status_of(post(port, body, {"Content-Type: application/json; charset=utf-8", kGood[1]})), 200);
  EXPECT_EQ(status_of(post(port, body, {kGood[0], "Accept: */*"})), 200);
}

// Header names are read whatever their case (RFC 9110, 5.1), and of a header sent twice the first
// counts. The controls: a misspelt session header is no session header (400), and the order of two
// Content-Types decides which one is judged.
TEST(HostileHttpClient, HeaderNamesAreReadInAnyCaseAndTheFirstOfTwoCounts) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const std::string session = open_session(port);
  ASSERT_FALSE(session.empty());
  const std::string ping = rpc::request(1, "ping").dump();
  const std::vector<std::string> odd_case = {"CONTENT-TYPE: application/json",
                                             "accept: application/json, text/event-stream",
                                             "mcp-session-id: " + session, "Mcp-Protocol-Version: 2025-11-25"};
  EXPECT_EQ(status_of(post(port, ping, odd_case)), 200);
  std::vector<std::string> misspelt = odd_case;
  misspelt[2] = "mcp-sesion-id: " + session;
  EXPECT_EQ(status_of(post(port, ping, misspelt)), 400);
  const std::vector<std::string> session_headers = {kGood[1], "Mcp-Session-Id: " + session,
                                                    "MCP-Protocol-Version: 2025-11-25"};
  EXPECT_EQ(status_of(post(port, ping,
                           with(with(session_headers, "Content-Type: text/plain"), "content-type: application/json"))),
            415);
  EXPECT_EQ(status_of(post(port, ping,
                           with(with(session_headers, "content-type: application/json"), "Content-Type: text/plain"))),
            200);
}

// A client that asks "Expect: 100-continue" hears "100 Continue" before it sends the body, and then
// its answer; two requests sent together on one connection are both answered, in order.
TEST(HostileHttpClient, ContinueIsSentBeforeTheBodyAndPipelinedRequestsAreAnsweredInOrder) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const std::string body = initialize_request().dump();
  {
    RawClient c(port);
    ASSERT_TRUE(c.connected());
    ASSERT_TRUE(
        c.send_all("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   "Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\n"
                   "Content-Length: " +
                   std::to_string(body.size()) + "\r\n\r\n"));
    std::string interim;
    while (interim.find("\r\n\r\n") == std::string::npos) {
      const std::string more = c.read(generous(), true);
      ASSERT_FALSE(more.empty()) << "no 100 Continue came before the body was sent";
      interim += more;
    }
    EXPECT_EQ(status_of(interim), 100) << interim;
    ASSERT_TRUE(c.send_all(body));
    const auto answer = c.read_answer(generous());
    EXPECT_EQ(status_of(answer), 200) << answer;
    EXPECT_NE(header_of(answer, "Mcp-Session-Id"), "");
  }
  const std::string session = open_session(port);
  ASSERT_FALSE(session.empty());
  RawClient c(port);
  ASSERT_TRUE(c.connected());
  std::string both;
  for (int id : {7, 8}) {
    const std::string ping = rpc::request(id, "ping").dump();
    both +=
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " +
        session + "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: " + std::to_string(ping.size()) +
        "\r\n\r\n" + ping;
  }
  ASSERT_TRUE(c.send_all(both));
  std::string answers;
  while (answers.find("\"id\":8") == std::string::npos) {
    const std::string more = c.read(generous(), true);
    ASSERT_FALSE(more.empty()) << answers;
    answers += more;
  }
  const auto first = answers.find("\"id\":7"), second = answers.find("\"id\":8");
  ASSERT_NE(first, std::string::npos) << answers;
  EXPECT_LT(first, second);
  EXPECT_EQ(answers.rfind("HTTP/1.1 200", first), 0u) << answers;
  EXPECT_NE(answers.find("HTTP/1.1 200", first), std::string::npos) << answers;
}

// An unknown session, and one the client deleted, get 404; deleting it twice too.
TEST(HostileHttpClient, UnknownAndDeletedSessionsGet404) {
  const auto mock = http_mock({"--scenario", "mock.basic"});
  const int port = port_of(mock.url);
  const std::string ping = rpc::request(1, "ping").dump();
  EXPECT_EQ(status_of(post(port, ping, with(kGood, "Mcp-Session-Id: 0123456789abcdef0123456789abcdef"))), 404);
  const std::string session = open_session(port);
  const auto in_session = with(kGood, "Mcp-Session-Id: " + session);
  EXPECT_EQ(status_of(post(port, ping, in_session)), 200);
  EXPECT_EQ(status_of(post(port, "", {"Mcp-Session-Id: " + session}, "DELETE")), 204);
  EXPECT_EQ(status_of(post(port, ping, in_session)), 404);
  EXPECT_EQ(status_of(post(port, "", {"Mcp-Session-Id: " + session}, "DELETE")), 404);
}

// A DELETE that arrives while an answer is delayed ends the session at once: the waiting request
// gets 404 instead of an answer in a session that is gone, and so does every later one.
TEST(HostileHttpClient, ADeleteRacingARequestEndsTheSessionForBoth) {
  test_support::TempDir dir;
  json document = mcp_hints::mock::load_scenario("mock.basic").document;
  const std::string tool = document["servers"]["main"]["tools"][0]["name"];
  document["servers"]["main"]["scripts"] = {
      {tool, json::array({{{"delayMs", 600000}, {"result", {{"content", json::array()}}}}})}};
  const auto scenario = dir.write("slow.json", document.dump());
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", scenario.string(), "--record", record});
  const int port = port_of(mock.url);
  const std::string session = open_session(port);
  const auto in_session = with(kGood, "Mcp-Session-Id: " + session);
  std::string delayed;
  std::thread caller([&] {
    delayed = post(port, rpc::request(7, "tools/call", json{{"name", tool}, {"arguments", json::object()}}).dump(),
                   in_session);
  });
  // The DELETE goes once the call is in the record, that is while its answer waits.
  const auto until = generous();
  auto recorded = [&] {
    std::ifstream in(record);
    for (std::string line; std::getline(in, line);)
      if (line.find("\"tools/call\"") != std::string::npos) return true;
    return false;
  };
  while (!recorded() && Clock::now() < until) std::this_thread::sleep_for(20ms);
  ASSERT_TRUE(recorded());
  EXPECT_EQ(status_of(post(port, "", {"Mcp-Session-Id: " + session}, "DELETE")), 204);
  caller.join();
  EXPECT_EQ(status_of(delayed), 404) << delayed;
  EXPECT_NE(body_of(delayed).find("session"), std::string::npos) << delayed;
  EXPECT_EQ(status_of(post(port, rpc::request(8, "ping").dump(), in_session)), 404);
}

// Once the scenario's script ends the session (a close step), a request in it gets 404, and a
// new client is still served.
TEST(HostileHttpClient, ARequestAfterTheScenarioEndedGets404) {
  const auto mock = http_mock({"--scenario", "mock.script-steps"});
  const int port = port_of(mock.url);
  const std::string session = open_session(port);
  const auto in_session = with(kGood, "Mcp-Session-Id: " + session);
  const auto hang_up = rpc::request(1, "tools/call", json{{"name", "hang_up"}, {"arguments", json::object()}});
  const auto closing = post(port, hang_up.dump(), in_session);
  EXPECT_EQ(status_of(closing), 404) << closing;
  EXPECT_EQ(status_of(post(port, rpc::request(2, "ping").dump(), in_session)), 404);
  EXPECT_EQ(status_of(post(port, "", {"Mcp-Session-Id: " + session}, "DELETE")), 404);
  EXPECT_FALSE(open_session(port).empty());
}

namespace {

// `mcp-hints mock` over stdio on raw pipes, so a test can write without reading, and learn the
// child's peak memory when it ends (wait4).
class StdioMock {
 public:
  explicit StdioMock(const char* scenario = "mock.basic") {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 2);
      ::execl(MCP_HINTS_BIN, MCP_HINTS_BIN, "mock", "--scenario", scenario, static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~StdioMock() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    if (pid_ > 0 && !ended_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  // Writes all of data unless the mock stops reading (EPIPE): the bytes written.
  std::size_t write(std::string_view data) {
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::write(to_, data.data() + done, data.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    return done;
  }
  void close_input() {
    ::close(to_);
    to_ = -1;
  }
  // The next line of its stdout (without the newline), empty at the end or the deadline.
  std::string line(Clock::time_point deadline) {
    for (;;) {
      if (const auto nl = pending_.find('\n'); nl != std::string::npos) {
        std::string l = pending_.substr(0, nl);
        pending_.erase(0, nl + 1);
        return l;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      pollfd p{from_, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return {};
      char buffer[65536];
      const ssize_t n = ::read(from_, buffer, sizeof buffer);
      if (n <= 0) return {};
      pending_.append(buffer, static_cast<std::size_t>(n));
    }
  }
  // Waits for it to end: its exit code and its peak memory in MiB.
  std::pair<int, long> wait() {
    int status = 0;
    rusage usage{};
    ::wait4(pid_, &status, 0, &usage);
    ended_ = true;
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss / 1024};
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  bool ended_ = false;
  std::string pending_;
};

}  // namespace

// Requests written at once (one write, read at once) whose answers are due at different times:
// each answer goes once, when due, and one scripted for later keeps its place among those that
// wait while the ones after it go at once.
TEST(HostileStdioClient, RequestsWrittenAtOnceAreEachAnsweredOnceWhenDue) {
  StdioMock mock("mock.script-steps");
  const auto call = [](int id) {
    return rpc::request(id, "tools/call", json{{"name", "fetch_record"}, {"arguments", json::object()}}).dump();
  };
  // The transient failure at once, the record after 100 ms, then three pings at once.
  std::string all = initialize_request().dump() + "\n" + call(1) + "\n" + call(2) + "\n";
  for (int id = 3; id <= 5; ++id) all += rpc::request(id, "ping").dump() + "\n";
  ASSERT_LT(all.size(), std::size_t{PIPE_BUF});  // one write the pipe takes whole
  ASSERT_EQ(mock.write(all), all.size());
  std::vector<json> ids;
  for (int i = 0; i < 6; ++i) {
    const json answer = json::parse(mock.line(generous()), nullptr, false);
    ASSERT_FALSE(answer.is_discarded()) << i;
    ids.push_back(answer["id"]);
  }
  EXPECT_EQ(ids, (std::vector<json>{0, 1, 3, 4, 5, 2}));
  EXPECT_EQ(mock.line(Clock::now() + 300ms), "");  // nothing twice
  mock.close_input();
  EXPECT_EQ(mock.wait().first, 0);
}

// A 100 MB line: the mock reads past --max-message (4 MiB) no further, answers -32600 and ends
// (exit 1) with its memory bounded by the limit, not by the line.
TEST(HostileStdioClient, AHundredMegabyteLineEndsTheConnectionAtTheLimit) {
  ::signal(SIGPIPE, SIG_IGN);
  StdioMock mock;
  std::size_t written = 0;
  std::thread writer([&] { written = mock.write(std::string(std::size_t{100} << 20, 'x')); });
  const json error = json::parse(mock.line(generous()), nullptr, false);
  EXPECT_EQ(error["error"]["code"], -32600) << error;
  EXPECT_TRUE(error["id"].is_null());
  const auto [code, peak] = mock.wait();
  writer.join();
  EXPECT_EQ(code, 1);
  EXPECT_LT(written, std::size_t{100} << 20) << "the mock read the whole line";
  if (test_support::kMemoryMeasurable) {
    EXPECT_LT(peak, 64) << "peak memory " << peak << " MiB";
  }
}

// A line that is not UTF-8 is a parse error (-32700, no id), and the next line is served.
TEST(HostileStdioClient, ALineOfInvalidUtf8IsAParseErrorAndServingGoesOn) {
  StdioMock mock;
  mock.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\xc3\"}}\n");
  mock.write(rpc::request(2, "ping").dump() + "\n");
  const json first = json::parse(mock.line(generous()), nullptr, false);
  EXPECT_EQ(first["error"]["code"], -32700) << first;
  EXPECT_TRUE(first["id"].is_null()) << first;
  const json second = json::parse(mock.line(generous()), nullptr, false);
  EXPECT_EQ(second["id"], 2) << second;
  EXPECT_TRUE(second.contains("result")) << second;
  mock.close_input();
  EXPECT_EQ(mock.wait().first, 0);
}

// 100k requests whose answers are not read: the mock stops reading when its answers back up (the
// pipes push back), so its memory stays bounded; then every answer arrives, in order.
TEST(HostileStdioClient, AHundredThousandUnreadRequestsDoNotGrowTheMock) {
  // Under the sanitizers, where memory is not measured, a fifth of them: still a thousand times
  // what the pipes hold, so the writer is held up just the same.
  constexpr int kRequests = test_support::kUnderSanitizers ? 20000 : 100000;
  StdioMock mock;
  std::atomic<bool> written{false};
  std::thread writer([&] {
    std::string all;
    for (int i = 0; i < kRequests; ++i) all += rpc::request(i, "tools/list").dump() + "\n";
    mock.write(all);
    written = true;
  });
  // Nothing is read until the writer is held up by the mock (the requests are ~5 MB, the answers
  // several times that: the pipes fill long before the end).
  std::this_thread::sleep_for(2s);
  const bool held_up = !written;
  const long while_held = memory_mib(mock.pid(), "VmRSS");
  int answered = 0;
  for (; answered < kRequests; ++answered) {
    const json answer = json::parse(mock.line(generous()), nullptr, false);
    if (answer.is_discarded() || answer["id"] != answered) break;
  }
  writer.join();
  EXPECT_EQ(answered, kRequests);
  EXPECT_TRUE(held_up) << "the writer was never held up: nothing pushed back";
  const long peak = memory_mib(mock.pid(), "VmHWM");
  EXPECT_GT(while_held, 0);
  if (test_support::kMemoryMeasurable) {
    EXPECT_LT(peak, 64) << "peak memory " << peak << " MiB";
  }
  mock.close_input();
  EXPECT_EQ(mock.wait().first, 0);
}
